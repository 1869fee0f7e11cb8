// A vector of trivially copyable values that keeps up to N of them inline,
// with std::vector's interface where gpy uses it. Array shapes are small
// (rank four or less almost always) and copied at every array operation:
// an inline shape spares the allocation each copy made.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <stdexcept>
#include <type_traits>
#include <vector>

namespace gpy {

template <class T, size_t N>
class SmallVec {
    static_assert(std::is_trivially_copyable_v<T>, "SmallVec holds trivially copyable values");

public:
    using value_type = T;
    using size_type = size_t;
    using difference_type = std::ptrdiff_t;
    using reference = T&;
    using const_reference = const T&;
    using pointer = T*;
    using const_pointer = const T*;
    using iterator = T*;
    using const_iterator = const T*;
    using reverse_iterator = std::reverse_iterator<iterator>;
    using const_reverse_iterator = std::reverse_iterator<const_iterator>;

    SmallVec() noexcept {}  // user-provided: a const SmallVec needs no initializer
    explicit SmallVec(size_t n, const T& v = T()) { assign(n, v); }
    SmallVec(std::initializer_list<T> list) { assign(list.begin(), list.end()); }
    template <class It, class = typename std::iterator_traits<It>::iterator_category>
    SmallVec(It first, It last) {
        assign(first, last);
    }
    SmallVec(const std::vector<T>& v) { assign(v.begin(), v.end()); }  // implicit, as shapes once were vectors
    SmallVec(const SmallVec& o) { assign(o.begin(), o.end()); }
    SmallVec(SmallVec&& o) noexcept { take(o); }
    ~SmallVec() { release(); }

    SmallVec& operator=(const SmallVec& o) {
        if (this != &o) assign(o.begin(), o.end());
        return *this;
    }
    SmallVec& operator=(SmallVec&& o) noexcept {
        if (this != &o) {
            release();
            take(o);
        }
        return *this;
    }
    SmallVec& operator=(std::initializer_list<T> list) {
        assign(list.begin(), list.end());
        return *this;
    }
    operator std::vector<T>() const { return std::vector<T>(begin(), end()); }

    void assign(size_t n, const T& v) {
        T copy = v;  // v may live in this vector, which reserve may free
        size_ = 0;
        reserve(n);
        std::fill(data_, data_ + n, copy);
        size_ = n;
    }
    template <class It, class = typename std::iterator_traits<It>::iterator_category>
    void assign(It first, It last) {
        size_t n = size_t(std::distance(first, last));
        size_ = 0;
        reserve(n);
        std::copy(first, last, data_);
        size_ = n;
    }

    size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    size_t capacity() const { return cap_; }
    T* data() { return data_; }
    const T* data() const { return data_; }
    T& operator[](size_t k) { return data_[k]; }
    const T& operator[](size_t k) const { return data_[k]; }
    T& at(size_t k) {
        if (k >= size_) throw std::out_of_range("SmallVec::at");
        return data_[k];
    }
    const T& at(size_t k) const {
        if (k >= size_) throw std::out_of_range("SmallVec::at");
        return data_[k];
    }
    T& front() { return data_[0]; }
    const T& front() const { return data_[0]; }
    T& back() { return data_[size_ - 1]; }
    const T& back() const { return data_[size_ - 1]; }
    iterator begin() { return data_; }
    iterator end() { return data_ + size_; }
    const_iterator begin() const { return data_; }
    const_iterator end() const { return data_ + size_; }
    const_iterator cbegin() const { return data_; }
    const_iterator cend() const { return data_ + size_; }
    reverse_iterator rbegin() { return reverse_iterator(end()); }
    reverse_iterator rend() { return reverse_iterator(begin()); }
    const_reverse_iterator rbegin() const { return const_reverse_iterator(end()); }
    const_reverse_iterator rend() const { return const_reverse_iterator(begin()); }

    void reserve(size_t n) {
        if (n <= cap_) return;
        size_t cap = std::max(n, 2 * cap_);
        T* p = static_cast<T*>(::operator new(cap * sizeof(T)));
        if (size_) std::memcpy(p, data_, size_ * sizeof(T));
        release();
        data_ = p;
        cap_ = cap;
    }
    void resize(size_t n, const T& v = T()) {
        T copy = v;  // as in assign
        reserve(n);
        if (n > size_) std::fill(data_ + size_, data_ + n, copy);
        size_ = n;
    }
    void clear() { size_ = 0; }
    void push_back(const T& v) {
        T copy = v;  // v may live in this vector
        reserve(size_ + 1);
        data_[size_++] = copy;
    }
    template <class... A>
    T& emplace_back(A&&... a) {
        push_back(T(std::forward<A>(a)...));
        return back();
    }
    void pop_back() { --size_; }

    iterator insert(const_iterator pos, const T& v) { return insert(pos, size_t(1), v); }
    iterator insert(const_iterator pos, size_t n, const T& v) {
        size_t at = size_t(pos - data_);
        T copy = v;
        reserve(size_ + n);
        std::memmove(data_ + at + n, data_ + at, (size_ - at) * sizeof(T));
        std::fill(data_ + at, data_ + at + n, copy);
        size_ += n;
        return data_ + at;
    }
    template <class It, class = typename std::iterator_traits<It>::iterator_category>
    iterator insert(const_iterator pos, It first, It last) {
        size_t at = size_t(pos - data_);
        std::vector<T> items(first, last);  // the range may be this vector
        size_t n = items.size();
        reserve(size_ + n);
        std::memmove(data_ + at + n, data_ + at, (size_ - at) * sizeof(T));
        std::copy(items.begin(), items.end(), data_ + at);
        size_ += n;
        return data_ + at;
    }
    iterator insert(const_iterator pos, std::initializer_list<T> list) { return insert(pos, list.begin(), list.end()); }
    iterator erase(const_iterator pos) { return erase(pos, pos + 1); }
    iterator erase(const_iterator first, const_iterator last) {
        size_t at = size_t(first - data_), n = size_t(last - first);
        std::memmove(data_ + at, data_ + at + n, (size_ - at - n) * sizeof(T));
        size_ -= n;
        return data_ + at;
    }

    friend bool operator==(const SmallVec& a, const SmallVec& b) { return std::equal(a.begin(), a.end(), b.begin(), b.end()); }
    friend bool operator==(const SmallVec& a, const std::vector<T>& b) { return std::equal(a.begin(), a.end(), b.begin(), b.end()); }
    friend bool operator<(const SmallVec& a, const SmallVec& b) {
        return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
    }

private:
    bool inline_storage() const { return data_ == inline_; }
    void release() {
        if (!inline_storage()) ::operator delete(data_);
        data_ = inline_;
        cap_ = N;
    }
    // Moves o's contents here (this is empty and inline); o is left empty.
    void take(SmallVec& o) {
        if (o.inline_storage()) {
            std::memcpy(inline_, o.inline_, o.size_ * sizeof(T));
            data_ = inline_;
            cap_ = N;
        } else {
            data_ = o.data_;
            cap_ = o.cap_;
            o.data_ = o.inline_;
            o.cap_ = N;
        }
        size_ = o.size_;
        o.size_ = 0;
    }

    T* data_ = inline_;
    size_t size_ = 0;
    size_t cap_ = N;
    T inline_[N];
};

}  // namespace gpy
