// Per-thread free lists of fixed-size blocks, for objects that an array
// statement builds and drops by the hundred: DAG nodes and array objects.
// glibc's per-thread cache keeps 7 blocks of a size, so a graph of ~110
// nodes freed at once (Black-Scholes) went through malloc's slower paths:
// malloc and free were ~18% of building that graph (perf, dev VM).
#pragma once

#include <cstddef>
#include <memory>
#include <new>

// Under AddressSanitizer (the fuzz target) blocks go straight to the heap,
// so a use after free of a node or an array is still caught.
#if defined(__SANITIZE_ADDRESS__)
#define GPY_FREE_LIST_OFF 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GPY_FREE_LIST_OFF 1
#endif
#endif
#ifndef GPY_FREE_LIST_OFF
#define GPY_FREE_LIST_OFF 0
#endif

namespace gpy {

template <size_t Size>
class FreeList {
public:
    static void* allocate() {
        if (GPY_FREE_LIST_OFF) return ::operator new(Size);
        State& s = state;
        if (Block* b = s.head) {
            s.head = b->next;
            --s.count;
            return b;
        }
        return ::operator new(Size);
    }

    static void release(void* p) {
        State& s = state;
        // Past the cap, or while the thread's list is being torn down
        // (objects freed by other thread-local destructors), to the heap.
        if (GPY_FREE_LIST_OFF || s.dead || s.count >= kCap) {
            ::operator delete(p);
            return;
        }
        auto* b = static_cast<Block*>(p);
        b->next = s.head;
        s.head = b;
        ++s.count;
        if (!s.owner_registered) register_owner();
    }

private:
    static_assert(Size >= sizeof(void*));
    static constexpr size_t kCap = 4096;  // blocks kept per thread and size
    struct Block {
        Block* next;
    };
    // Trivially destructible, so it stays usable while the thread's other
    // thread-locals are destroyed; Owner returns its blocks at thread exit.
    struct State {
        Block* head;
        size_t count;
        bool dead, owner_registered;
    };
    struct Owner {
        ~Owner() {
            State& s = state;
            s.dead = true;
            while (Block* b = s.head) {
                s.head = b->next;
                ::operator delete(b);
            }
            s.count = 0;
        }
    };
    static void register_owner() {
        thread_local Owner owner;
        state.owner_registered = true;
    }
    static inline thread_local State state{};
};

// An allocator whose single-object allocations come from FreeList: for
// std::allocate_shared, which allocates the control block and the object as
// one block of a fixed size.
template <class T>
struct FreeListAllocator {
    using value_type = T;
    FreeListAllocator() = default;
    template <class U>
    FreeListAllocator(const FreeListAllocator<U>&) {}
    static_assert(alignof(T) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__);
    T* allocate(size_t n) { return n == 1 ? static_cast<T*>(FreeList<sizeof(T)>::allocate()) : std::allocator<T>().allocate(n); }
    void deallocate(T* p, size_t n) {
        if (n == 1) FreeList<sizeof(T)>::release(p);
        else std::allocator<T>().deallocate(p, n);
    }
    template <class U>
    bool operator==(const FreeListAllocator<U>&) const { return true; }
};

}  // namespace gpy
