// A map from pointers to int64 ids (or a set, ignoring the ids) for the graph
// walks that run at every array operation or materialisation. Open
// addressing in one array, cleared by bumping a generation: a warm walk
// allocates nothing, where an unordered_map allocates a node per insert
// (those allocations were a fifth of Black-Scholes' host time).
#pragma once

#include <cstdint>
#include <vector>

namespace gpy {

class PointerIds {
public:
    // Forgets every entry; keeps the room.
    void clear() {
        count_ = 0;
        if (++gen_ == 0) {  // wrapped: stale slots could look current
            for (Slot& s : slots_) s.gen = 0;
            gen_ = 1;
        }
    }

    // p's id, or -1.
    int64_t find(const void* p) const {
        if (slots_.empty()) return -1;
        for (size_t i = home(p);; i = (i + 1) & (slots_.size() - 1)) {
            const Slot& s = slots_[i];
            if (s.gen != gen_) return -1;
            if (s.key == p) return s.id;
        }
    }

    // Adds p -> id unless p is present; true when added.
    bool insert(const void* p, int64_t id = 0) {
        if (2 * (count_ + 1) > slots_.size()) grow();
        for (size_t i = home(p);; i = (i + 1) & (slots_.size() - 1)) {
            Slot& s = slots_[i];
            if (s.gen != gen_) {
                s = Slot{p, gen_, id};
                ++count_;
                return true;
            }
            if (s.key == p) return false;
        }
    }

    size_t size() const { return count_; }

private:
    struct Slot {
        const void* key = nullptr;
        uint32_t gen = 0;
        int64_t id = 0;
    };

    size_t home(const void* p) const {
        // Nodes are 16-byte aligned heap blocks: drop the low bits, then mix.
        uint64_t h = uint64_t(reinterpret_cast<uintptr_t>(p) >> 4) * 0x9E3779B97F4A7C15ull;
        return size_t(h >> 32) & (slots_.size() - 1);
    }

    void grow() {
        std::vector<Slot> old;
        old.swap(slots_);
        slots_.assign(old.empty() ? 256 : old.size() * 2, Slot{});
        uint32_t old_gen = gen_;
        gen_ = 1;
        count_ = 0;
        for (const Slot& s : old)
            if (s.gen == old_gen) insert(s.key, s.id);
    }

    std::vector<Slot> slots_;
    uint32_t gen_ = 1;
    size_t count_ = 0;
};

}  // namespace gpy
