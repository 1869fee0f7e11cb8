// The text compiled before a user's CUDA source on the CPU
// (runtime/raw_cpu.cpp): CUDA's execution model emulated in plain C++.
//
// Each CUDA thread of a block runs as a fiber: a 256 KiB stack, aligned to its
// size, with the thread's state (threadIdx, blockIdx, ...) at its base, so
// the builtins read it from the stack pointer (no thread-local storage: ORC
// without its runtime has none). __syncthreads and the warp operations
// (__syncwarp, __shfl*_sync, __ballot/__any/__all_sync) switch back to the
// block's scheduler, which resumes the fibers when every live thread of the
// block (of the operation's mask in the warp) has arrived; a kernel without them runs its threads
// one after another on one fiber. __shared__ variables are statics (the
// caller runs such kernels' blocks one at a time), dynamic shared memory one
// static buffer. Atomics are the compiler's atomics, for CUDA's overload set
// (blocks of other kernels run on several cores). The context switch is
// x86-64 assembly.
#pragma once

namespace gpy {

inline constexpr const char* kRawCpuPrelude = R"PRELUDE(
#define GPY_RAW_CPU 1
#define GPY_INLINE static inline __attribute__((always_inline))
typedef signed char int8_t; typedef unsigned char uint8_t; typedef short int16_t; typedef unsigned short uint16_t;
typedef int int32_t; typedef unsigned int uint32_t; typedef long int64_t; typedef unsigned long uint64_t;
typedef long ptrdiff_t; typedef long intptr_t; typedef unsigned long uintptr_t;
extern "C" int printf(const char*, ...);
#ifdef GPY_ANALYSIS
// Clang's analysis of the source (runtime/llvm/raw_analysis_backend.cpp)
// finds CUDA's qualifiers as annotations.
#define __global__ __attribute__((annotate("gpy_global")))
#define __constant__ __attribute__((annotate("gpy_constant")))
#define __device__ __attribute__((annotate("gpy_device")))
#define __shared__ static __attribute__((annotate("gpy_shared")))
#else
#define __global__
#define __constant__
#define __shared__ static
#endif
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))
#define __managed__
#define __noinline__ __attribute__((noinline))
#define __restrict__ __restrict
#define warpSize 32
#define GPY_VEC(T, N, A)                                                                              \
    struct __attribute__((aligned(A))) N##1 { T x; };                                                 \
    struct __attribute__((aligned(2 * A))) N##2 { T x, y; };                                          \
    struct N##3 { T x, y, z; };                                                                       \
    struct __attribute__((aligned(4 * A < 16 ? 4 * A : 16))) N##4 { T x, y, z, w; };                  \
    GPY_INLINE N##1 make_##N##1(T x) { return N##1{x}; }                                              \
    GPY_INLINE N##2 make_##N##2(T x, T y) { return N##2{x, y}; }                                      \
    GPY_INLINE N##3 make_##N##3(T x, T y, T z) { return N##3{x, y, z}; }                              \
    GPY_INLINE N##4 make_##N##4(T x, T y, T z, T w) { return N##4{x, y, z, w}; }
GPY_VEC(float, float, 4) GPY_VEC(double, double, 8) GPY_VEC(int, int, 4) GPY_VEC(unsigned, uint, 4)
GPY_VEC(long long, longlong, 8) GPY_VEC(unsigned long long, ulonglong, 8) GPY_VEC(short, short, 2)
GPY_VEC(unsigned short, ushort, 2) GPY_VEC(signed char, char, 1) GPY_VEC(unsigned char, uchar, 1)
struct dim3 {
    unsigned x, y, z;
    dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {}
    dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
};

namespace gpy_emu {
constexpr unsigned long kStack = 1ul << 18;  // runtime/raw_cpu.cpp kFiberStack
struct Block;
// One CUDA thread: at the base of its fiber's stack.
struct Thread {
    uint3 tid, bid;
    dim3 bdim, gdim;
    void* sp;        // the saved stack pointer while switched out
    Block* block;
    unsigned linear; // threadIdx as one number (x fastest): warps are runs of 32
    int wait;        // 0 runnable, 1 at __syncthreads, 2 at a warp exchange, 4 leaving one, 3 done
    unsigned mask;   // the lanes of the exchange it waits at (warp-relative bits)
};
struct Block {
    void* sched_sp;
    void (*body)(void**);
    void** args;
    Thread* threads[1024];
    unsigned n;
    unsigned long first, end;  // the blocks a one-fiber run covers
    const volatile int* stop;  // set by the host on Ctrl-C: no further blocks start
    unsigned long long xchg[1024];  // warp exchange slots, one per thread
    unsigned group[1024];           // the lanes released with each thread at its last exchange
};
GPY_INLINE Thread* self() { return (Thread*)((unsigned long)__builtin_frame_address(0) & ~(kStack - 1)); }

// Saves the callee-saved registers and the stack pointer in *save, then
// resumes the fiber whose stack pointer is `to` (System V x86-64).
__attribute__((naked, noinline)) static void switch_to(void** save, void* to) {
    __asm__ volatile(
        "pushq %rbp\n pushq %rbx\n pushq %r12\n pushq %r13\n pushq %r14\n pushq %r15\n"
        "movq %rsp, (%rdi)\n movq %rsi, %rsp\n"
        "popq %r15\n popq %r14\n popq %r13\n popq %r12\n popq %rbx\n popq %rbp\n ret\n");
}

// A fresh fiber that enters `entry` when first resumed: its stack holds
// zeroed registers for switch_to to pop and `entry` as the return address,
// placed so that entry starts with the stack aligned as after a call.
static void make_fiber(Thread* t, void (*entry)()) {
    void** sp = (void**)((char*)t + kStack);
    *--sp = 0;
    *--sp = (void*)entry;
    for (int r = 0; r < 6; ++r) *--sp = 0;
    t->sp = sp;
}

static void set_block(Thread* t, unsigned long b) {
    t->bid.x = unsigned(b % t->gdim.x);
    t->bid.y = unsigned(b / t->gdim.x % t->gdim.y);
    t->bid.z = unsigned(b / ((unsigned long)t->gdim.x * t->gdim.y));
}

// A kernel without barriers: every thread of blocks [first, end), one after
// another, the kernel's body inlined (Body: its entry) so the loop over
// threadIdx.x can be optimised as one. Stops between blocks once *stop is set
// (Ctrl-C).
template <void (*Body)(void**), bool Loops>
static void serial_entry() {
    Thread* t = self();
    Block* b = t->block;
    void** args = b->args;
    for (unsigned long k = b->first; k < b->end && !__atomic_load_n(b->stop, __ATOMIC_RELAXED); ++k) {
        set_block(t, k);
        if constexpr (Loops) {
            Body(args);  // the kernel loops over its block's threads itself (GPY_SERIAL_BEGIN)
            continue;
        }
        unsigned i = 0;
        for (unsigned z = 0; z < t->bdim.z; ++z)
            for (unsigned y = 0; y < t->bdim.y; ++y)
                for (unsigned x = 0; x < t->bdim.x; ++x, ++i) {
                    t->tid = uint3{x, y, z};
                    t->linear = i;
                    Body(args);
                }
    }
    t->wait = 3;
    switch_to(&t->sp, b->sched_sp);
    __builtin_unreachable();
}

// One thread of a kernel with barriers.
static void thread_entry() {
    Thread* t = self();
    Block* b = t->block;
    b->body(b->args);
    t->wait = 3;
    switch_to(&t->sp, b->sched_sp);
    __builtin_unreachable();
}

// Releases, in the warp of threads [lo, hi), each group of lanes waiting in
// `phase` (2: giving values, 4: leaving) whose mask's live lanes all wait
// there. True when one was.
static bool release_warp(Block* b, unsigned lo, unsigned hi, int phase) {
    bool released = false;
    for (unsigned i = lo; i < hi; ++i) {
        Thread* t = b->threads[i];
        if (t->wait != phase) continue;
        const unsigned mask = t->mask | (1u << (i - lo));
        unsigned group = 0;
        bool ready = true;
        for (unsigned j = lo; j < hi; ++j) {
            if (!(mask >> (j - lo) & 1u) || b->threads[j]->wait == 3) continue;
            group |= 1u << (j - lo);
            ready &= b->threads[j]->wait == phase;
        }
        if (!ready) continue;
        for (unsigned j = lo; j < hi; ++j)
            if (group >> (j - lo) & 1u) {
                b->threads[j]->wait = 0;
                b->group[j] = group;
            }
        released = true;
    }
    return released;
}

// Runs a block's fibers until all are done: each until it waits, then
// releases warp exchanges whose lanes have all arrived (by the exchange's
// mask; lanes that returned do not count), or the block when all its live
// threads wait at __syncthreads. 1: a deadlock (a barrier some live thread
// never reaches).
static int schedule(Block* b) {
    for (;;) {
        for (unsigned i = 0; i < b->n; ++i)
            if (b->threads[i]->wait == 0) switch_to(&b->sched_sp, b->threads[i]->sp);
        unsigned live = 0, at_sync = 0;
        for (unsigned i = 0; i < b->n; ++i) {
            live += b->threads[i]->wait != 3;
            at_sync += b->threads[i]->wait == 1;
        }
        if (!live) return 0;
        bool released = false;
        for (unsigned lo = 0; lo < b->n; lo += 32) {
            const unsigned hi = lo + 32 < b->n ? lo + 32 : b->n;
            released |= release_warp(b, lo, hi, 4);
            released |= release_warp(b, lo, hi, 2);
        }
        if (!released && at_sync == live) {
            for (unsigned i = 0; i < b->n; ++i)
                if (b->threads[i]->wait == 1) b->threads[i]->wait = 0;
            released = true;
        }
        if (!released) return 1;
    }
}

// Blocks [first, end) of a launch: dims = grid x, y, z, block x, y, z;
// `stacks` one fiber stack per thread of a block (fibers) or one. Returns 1
// for a deadlock, 2 when *stop ended it early.
template <void (*Body)(void**), bool Loops>
static int run(void** args, const unsigned* d, unsigned long first, unsigned long end, char* stacks, int fibers,
               const volatile int* stop) {
    Block blk;
    blk.body = Body;
    blk.stop = stop;
    blk.args = args;
    blk.first = first;
    blk.end = end;
    blk.n = d[3] * d[4] * d[5];
    auto init = [&](Thread* t) {
        t->gdim = dim3(d[0], d[1], d[2]);
        t->bdim = dim3(d[3], d[4], d[5]);
        t->block = &blk;
        t->wait = 0;
        t->mask = 0;
    };
    if (!fibers) {
        Thread* t = (Thread*)stacks;
        init(t);
        make_fiber(t, serial_entry<Body, Loops>);
        switch_to(&blk.sched_sp, t->sp);
        return *stop ? 2 : 0;
    }
    for (unsigned long k = first; k < end && !*stop; ++k) {
        unsigned i = 0;
        for (unsigned z = 0; z < d[5]; ++z)
            for (unsigned y = 0; y < d[4]; ++y)
                for (unsigned x = 0; x < d[3]; ++x, ++i) {
                    Thread* t = (Thread*)(stacks + i * kStack);
                    init(t);
                    set_block(t, k);
                    t->tid = uint3{x, y, z};
                    t->linear = i;
                    make_fiber(t, thread_entry);
                    blk.threads[i] = t;
                }
        if (schedule(&blk)) return 1;
    }
    return *stop ? 2 : 0;
}

// A warp exchange: gives `v`, waits until every live lane in `mask` has
// given its own, copies the warp's values to `row`, then waits until they
// all have (so none overwrites a value another still reads). Returns the
// lanes that took part.
GPY_INLINE unsigned warp_exchange(unsigned long long v, unsigned mask, unsigned long long* row) {
    Thread* t = self();
    Block* b = t->block;
    b->xchg[t->linear] = v;
    t->mask = mask;
    t->wait = 2;
    switch_to(&t->sp, b->sched_sp);
    const unsigned lo = t->linear & ~31u, parts = b->group[t->linear];
    for (unsigned l = 0; l < 32; ++l) row[l] = parts >> l & 1u ? b->xchg[lo + l] : 0;
    t->wait = 4;
    switch_to(&t->sp, b->sched_sp);
    return parts;
}
template <class T> GPY_INLINE T shuffle(unsigned mask, T v, unsigned lane_of_source, bool keep) {
    static_assert(sizeof(T) <= 8, "a warp shuffle moves at most 8 bytes");
    unsigned long long bits = 0, row[32];
    __builtin_memcpy(&bits, &v, sizeof(T));
    const unsigned parts = warp_exchange(bits, mask, row);
    if (keep || lane_of_source >= 32 || !(parts >> lane_of_source & 1u)) return v;  // an inactive source: undefined in CUDA
    T r;
    __builtin_memcpy(&r, &row[lane_of_source], sizeof(T));
    return r;
}
GPY_INLINE unsigned lane() { return self()->linear & 31u; }

template <class T, T... I> struct Seq {};
template <class... P, unsigned long... I> GPY_INLINE void call_with(void (*f)(P...), void** a, Seq<unsigned long, I...>) {
    f(*(P*)a[I]...);
}
template <class... P> GPY_INLINE void call(void (*f)(P...), void** a) {
    call_with(f, a, __make_integer_seq<Seq, unsigned long, sizeof...(P)>{});
}
}  // namespace gpy_emu

// A thread's indices and dimensions, read from its state; a kernel body in
// GPY_SERIAL_BEGIN/END declares locals of these names, which hide them.
GPY_INLINE uint3 gpy_threadIdx() { return ::gpy_emu::self()->tid; }
GPY_INLINE uint3 gpy_blockIdx() { return ::gpy_emu::self()->bid; }
GPY_INLINE dim3 gpy_blockDim() { return ::gpy_emu::self()->bdim; }
GPY_INLINE dim3 gpy_gridDim() { return ::gpy_emu::self()->gdim; }
#define threadIdx (gpy_threadIdx())
#define blockIdx (gpy_blockIdx())
#define blockDim (gpy_blockDim())
#define gridDim (gpy_gridDim())
__attribute__((aligned(16))) static char gpy_dynamic_shared[256 << 10];

GPY_INLINE void __syncthreads() {
    ::gpy_emu::Thread* t = ::gpy_emu::self();
    t->wait = 1;
    ::gpy_emu::switch_to(&t->sp, t->block->sched_sp);
}
GPY_INLINE void __syncwarp(unsigned mask = 0xffffffffu) {
    unsigned long long row[32];
    ::gpy_emu::warp_exchange(0, mask, row);
}
template <class T> GPY_INLINE T __shfl_sync(unsigned mask, T v, int src, int width = 32) {
    const unsigned l = ::gpy_emu::lane(), base = l & ~unsigned(width - 1);
    return ::gpy_emu::shuffle(mask, v, base + (unsigned(src) & unsigned(width - 1)), false);
}
template <class T> GPY_INLINE T __shfl_up_sync(unsigned mask, T v, unsigned delta, int width = 32) {
    const unsigned l = ::gpy_emu::lane(), base = l & ~unsigned(width - 1);
    return ::gpy_emu::shuffle(mask, v, l - delta, l < base + delta);
}
template <class T> GPY_INLINE T __shfl_down_sync(unsigned mask, T v, unsigned delta, int width = 32) {
    const unsigned l = ::gpy_emu::lane(), base = l & ~unsigned(width - 1);
    return ::gpy_emu::shuffle(mask, v, l + delta, l + delta >= base + unsigned(width));
}
template <class T> GPY_INLINE T __shfl_xor_sync(unsigned mask, T v, int lanes, int width = 32) {
    const unsigned l = ::gpy_emu::lane(), base = l & ~unsigned(width - 1), s = l ^ unsigned(lanes);
    return ::gpy_emu::shuffle(mask, v, s, s < base || s >= base + unsigned(width));
}
// Votes over the lanes that took part in the exchange.
GPY_INLINE unsigned __ballot_sync(unsigned mask, int pred) {
    unsigned long long row[32];
    const unsigned parts = ::gpy_emu::warp_exchange(pred ? 1 : 0, mask, row);
    unsigned r = 0;
    for (unsigned i = 0; i < 32; ++i) r |= unsigned(row[i] != 0) << i;
    return r & parts;
}
GPY_INLINE int __any_sync(unsigned m, int pred) { return __ballot_sync(m, pred) != 0; }
GPY_INLINE int __all_sync(unsigned mask, int pred) {
    unsigned long long row[32];
    const unsigned parts = ::gpy_emu::warp_exchange(pred ? 1 : 0, mask, row);
    for (unsigned i = 0; i < 32; ++i)
        if ((parts >> i & 1u) && !row[i]) return 0;
    return 1;
}
GPY_INLINE unsigned __activemask() { return 0xffffffffu; }
GPY_INLINE void __threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
GPY_INLINE void __threadfence_block() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
template <class T> GPY_INLINE T __ldg(const T* p) { return *p; }
GPY_INLINE long long clock64() { return (long long)__builtin_readcyclecounter(); }
GPY_INLINE long clock() { return (long)__builtin_readcyclecounter(); }
GPY_INLINE int __popc(unsigned x) { return __builtin_popcount(x); }
GPY_INLINE int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
GPY_INLINE int __clz(int x) { return x ? __builtin_clz(unsigned(x)) : 32; }
GPY_INLINE int __clzll(long long x) { return x ? __builtin_clzll((unsigned long long)x) : 64; }
GPY_INLINE int __ffs(int x) { return __builtin_ffs(x); }
GPY_INLINE int __ffsll(long long x) { return __builtin_ffsll(x); }
GPY_INLINE unsigned __brev(unsigned x) { return __builtin_bitreverse32(x); }
GPY_INLINE unsigned long long __brevll(unsigned long long x) { return __builtin_bitreverse64(x); }
GPY_INLINE unsigned __umulhi(unsigned a, unsigned b) { return unsigned(((unsigned long long)a * b) >> 32); }
GPY_INLINE int __mulhi(int a, int b) { return int(((long long)a * b) >> 32); }
GPY_INLINE unsigned long long __umul64hi(unsigned long long a, unsigned long long b) { return (unsigned long long)(((unsigned __int128)a * b) >> 64); }
GPY_INLINE float __int_as_float(int x) { float r; __builtin_memcpy(&r, &x, 4); return r; }
GPY_INLINE int __float_as_int(float x) { int r; __builtin_memcpy(&r, &x, 4); return r; }
GPY_INLINE float __uint_as_float(unsigned x) { float r; __builtin_memcpy(&r, &x, 4); return r; }
GPY_INLINE unsigned __float_as_uint(float x) { unsigned r; __builtin_memcpy(&r, &x, 4); return r; }
GPY_INLINE double __longlong_as_double(long long x) { double r; __builtin_memcpy(&r, &x, 8); return r; }
GPY_INLINE long long __double_as_longlong(double x) { long long r; __builtin_memcpy(&r, &x, 8); return r; }
GPY_INLINE float __saturatef(float x) { return x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x; }
GPY_INLINE float __fadd_rn(float a, float b) { return a + b; }
GPY_INLINE float __fmul_rn(float a, float b) { return a * b; }
GPY_INLINE double __dadd_rn(double a, double b) { return a + b; }
GPY_INLINE double __dmul_rn(double a, double b) { return a * b; }
GPY_INLINE int __float2int_rz(float x) { return (int)x; }
GPY_INLINE int __double2int_rn(double x) { return (int)__builtin_rint(x); }
// The atomics CUDA has, for the types it has them (a kernel that compiles
// here compiles with NVRTC): add int/unsigned/ull/float/double, sub
// int/unsigned, exch int/unsigned/ull/float, min/max int/unsigned/ll/ull,
// and/or/xor int/unsigned/ull, CAS int/unsigned/ull.
#define GPY_ATOMIC_FETCH(NAME, BUILTIN, T) \
    GPY_INLINE T NAME(T* p, T v) { return BUILTIN(p, v, __ATOMIC_RELAXED); }
#define GPY_ATOMIC_CAS(T)                                                                                              \
    GPY_INLINE T atomicCAS(T* p, T expected, T v) {                                                                   \
        __atomic_compare_exchange_n(p, &expected, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);                      \
        return expected;                                                                                               \
    }
GPY_ATOMIC_FETCH(atomicAdd, __atomic_fetch_add, int) GPY_ATOMIC_FETCH(atomicAdd, __atomic_fetch_add, unsigned int)
GPY_ATOMIC_FETCH(atomicAdd, __atomic_fetch_add, unsigned long long)
GPY_ATOMIC_FETCH(atomicSub, __atomic_fetch_sub, int) GPY_ATOMIC_FETCH(atomicSub, __atomic_fetch_sub, unsigned int)
GPY_ATOMIC_FETCH(atomicExch, __atomic_exchange_n, int) GPY_ATOMIC_FETCH(atomicExch, __atomic_exchange_n, unsigned int)
GPY_ATOMIC_FETCH(atomicExch, __atomic_exchange_n, unsigned long long)
GPY_ATOMIC_FETCH(atomicMin, __atomic_fetch_min, int) GPY_ATOMIC_FETCH(atomicMin, __atomic_fetch_min, unsigned int)
GPY_ATOMIC_FETCH(atomicMin, __atomic_fetch_min, long long) GPY_ATOMIC_FETCH(atomicMin, __atomic_fetch_min, unsigned long long)
GPY_ATOMIC_FETCH(atomicMax, __atomic_fetch_max, int) GPY_ATOMIC_FETCH(atomicMax, __atomic_fetch_max, unsigned int)
GPY_ATOMIC_FETCH(atomicMax, __atomic_fetch_max, long long) GPY_ATOMIC_FETCH(atomicMax, __atomic_fetch_max, unsigned long long)
GPY_ATOMIC_FETCH(atomicAnd, __atomic_fetch_and, int) GPY_ATOMIC_FETCH(atomicAnd, __atomic_fetch_and, unsigned int)
GPY_ATOMIC_FETCH(atomicAnd, __atomic_fetch_and, unsigned long long)
GPY_ATOMIC_FETCH(atomicOr, __atomic_fetch_or, int) GPY_ATOMIC_FETCH(atomicOr, __atomic_fetch_or, unsigned int)
GPY_ATOMIC_FETCH(atomicOr, __atomic_fetch_or, unsigned long long)
GPY_ATOMIC_FETCH(atomicXor, __atomic_fetch_xor, int) GPY_ATOMIC_FETCH(atomicXor, __atomic_fetch_xor, unsigned int)
GPY_ATOMIC_FETCH(atomicXor, __atomic_fetch_xor, unsigned long long)
GPY_ATOMIC_CAS(int) GPY_ATOMIC_CAS(unsigned int) GPY_ATOMIC_CAS(unsigned long long)
#define GPY_ATOMIC_FLOAT(T)                                                                                            \
    GPY_INLINE T atomicAdd(T* p, T v) {                                                                               \
        T old, want;                                                                                                   \
        __atomic_load(p, &old, __ATOMIC_RELAXED);                                                                      \
        do want = old + v;                                                                                             \
        while (!__atomic_compare_exchange(p, &old, &want, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED));                  \
        return old;                                                                                                    \
    }
GPY_ATOMIC_FLOAT(float) GPY_ATOMIC_FLOAT(double)
GPY_INLINE float atomicExch(float* p, float v) {
    float old;
    __atomic_exchange(p, &v, &old, __ATOMIC_RELAXED);
    return old;
}
GPY_INLINE unsigned atomicInc(unsigned* p, unsigned limit) {
    unsigned old = __atomic_load_n(p, __ATOMIC_RELAXED), want;
    do want = old >= limit ? 0u : old + 1;
    while (!__atomic_compare_exchange_n(p, &old, want, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
    return old;
}
GPY_INLINE unsigned atomicDec(unsigned* p, unsigned limit) {
    unsigned old = __atomic_load_n(p, __ATOMIC_RELAXED), want;
    do want = (old == 0 || old > limit) ? limit : old - 1;
    while (!__atomic_compare_exchange_n(p, &old, want, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
    return old;
}
#ifdef GPY_CHECKED
// gpy --check-kernels: runtime/raw_cpu.cpp declares each kernel's pointer
// parameters as Checked<T> (the host builds them: runtime/raw_cpu.cpp's
// CheckedArg has the same layout) and turns each use of one in a kernel's
// body into GPY_AT(name), which notes the line. Every access through it
// (x[i], *x, x->f, after x + k or x++) is checked against the array's bytes;
// the first one outside is recorded in the launch's Violation and then
// served from a scratch buffer, so the kernel runs on without writing
// anywhere it must not. Passed to a function taking T*, it is a plain
// pointer again (unchecked from there).
namespace gpy_emu {
struct Violation {
    int hit, line;
    const char* name;
    const char* file;
    const char* lo;       // the argument's first byte
    long offset, extent;  // bytes from it; its bytes
    long rel;             // bytes from the pointer the access indexed
    unsigned size;        // bytes of the access
    unsigned tid[3], bid[3];
};
template <class T> struct Size { static constexpr unsigned long n = sizeof(T); };
template <> struct Size<void> { static constexpr unsigned long n = 1; };
template <> struct Size<const void> { static constexpr unsigned long n = 1; };
__attribute__((aligned(64))) static char checked_scratch[1 << 16];
#define GPY_MEMBER inline __attribute__((always_inline))
template <class T> struct Checked {
    T* p;
    const char* lo;
    const char* hi;
    Violation* v;
    int line;
    const char* name;
    const char* file;
    GPY_MEMBER Checked& at(int l, const char* n, const char* f) {
        line = l;
        name = n;
        file = f;
        return *this;
    }
    __attribute__((noinline)) T* outside(const char* q, const T* from) const {
        if (!__atomic_exchange_n(&v->hit, 1, __ATOMIC_RELAXED)) {
            const Thread* t = self();
            v->line = line;
            v->name = name;
            v->file = file;
            v->lo = lo;
            v->offset = q - lo;
            v->rel = q - (const char*)from;
            v->extent = hi - lo;
            v->size = unsigned(Size<T>::n);
            v->tid[0] = t->tid.x, v->tid[1] = t->tid.y, v->tid[2] = t->tid.z;
            v->bid[0] = t->bid.x, v->bid[1] = t->bid.y, v->bid[2] = t->bid.z;
        }
        return (T*)checked_scratch;
    }
    GPY_MEMBER T* ok(T* q) const {
        const char* b = (const char*)q;
        return b >= lo && b + Size<T>::n <= hi && b + Size<T>::n >= b ? q : outside(b, p);
    }
    template <class U = T> GPY_MEMBER U& operator[](long i) const { return *ok(p + i); }
    template <class U = T> GPY_MEMBER U& operator*() const { return *ok(p); }
    template <class U = T> GPY_MEMBER U* operator->() const { return ok(p); }
    template <class U = T> GPY_MEMBER Checked operator+(long k) const { Checked c = *this; c.p = p + k; return c; }
    template <class U = T> GPY_MEMBER Checked operator-(long k) const { Checked c = *this; c.p = p - k; return c; }
    template <class U = T> GPY_MEMBER Checked& operator+=(long k) { p += k; return *this; }
    template <class U = T> GPY_MEMBER Checked& operator-=(long k) { p -= k; return *this; }
    template <class U = T> GPY_MEMBER Checked& operator++() { ++p; return *this; }
    template <class U = T> GPY_MEMBER Checked& operator--() { --p; return *this; }
    template <class U = T> GPY_MEMBER Checked operator++(int) { Checked c = *this; ++p; return c; }
    template <class U = T> GPY_MEMBER Checked operator--(int) { Checked c = *this; --p; return c; }
    GPY_MEMBER Checked& operator=(T* q) { p = q; return *this; }
    GPY_MEMBER operator T*() const { return p; }
    template <class U> GPY_MEMBER explicit operator U*() const { return (U*)p; }
};
}  // namespace gpy_emu
#define GPY_AT(name) name.at(__LINE__, #name, __FILE__)
#endif
// A kernel without barriers (runtime/raw_cpu.cpp wraps such a __global__
// body in GPY_SERIAL_BEGIN/END and runs it through run<Body, true>): the
// loop over the block's threads runs inside the kernel, threadIdx a local
// and the block's ids loaded once, so Clang sees a plain loop it can
// vectorise (read through the thread's state, which the user's pointers
// might alias, nothing stayed loop-invariant). The locals gpy_threadIdx ...
// hide the functions of those names in the body only: the functions it
// calls read the state (Clang's analysis wraps no kernel whose callees read
// it). The body is a lambda: its `return` ends one thread.
#define GPY_SERIAL_BEGIN                                                                                 \
    {                                                                                                    \
        const ::gpy_emu::Thread* gpy_state = ::gpy_emu::self();                                          \
        const uint3 gpy_bid = gpy_state->bid;                                                            \
        const dim3 gpy_bdim = gpy_state->bdim, gpy_gdim = gpy_state->gdim;                               \
        const auto gpy_blockIdx = [&]() __attribute__((always_inline)) { return gpy_bid; };             \
        const auto gpy_blockDim = [&]() __attribute__((always_inline)) { return gpy_bdim; };            \
        const auto gpy_gridDim = [&]() __attribute__((always_inline)) { return gpy_gdim; };             \
        for (unsigned gpy_z = 0; gpy_z < gpy_bdim.z; ++gpy_z)                                             \
            for (unsigned gpy_y = 0; gpy_y < gpy_bdim.y; ++gpy_y)                                         \
                for (unsigned gpy_x = 0; gpy_x < gpy_bdim.x; ++gpy_x) {                                   \
                    const uint3 gpy_tid{gpy_x, gpy_y, gpy_z};                                            \
                    const auto gpy_threadIdx = [&]() __attribute__((always_inline)) { return gpy_tid; }; \
                    [&]() __attribute__((always_inline)) -> void {
#define GPY_SERIAL_END \
                    }();   \
                }          \
    }
)PRELUDE";

}  // namespace gpy
