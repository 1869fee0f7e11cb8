// The CPU kernel JIT (runtime/cpu_jit) and its cache (runtime/kernel_cache):
// compile and run, memory and disk hits, corrupt entries, an unwritable cache
// folder, compile errors, concurrency, and the floating-point options.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "runtime/cpu_jit.h"
#include "runtime/kernel_cache.h"

namespace fs = std::filesystem;

namespace {

using UnaryFn = void (*)(float*, const float*, long);

// A fresh temporary folder, removed at scope exit.
struct TempDir {
    std::string path;
    TempDir() {
        std::string tmpl = (fs::temp_directory_path() / "gpy_jit_test_XXXXXX").string();
        REQUIRE(::mkdtemp(tmpl.data()) != nullptr);
        path = tmpl;
    }
    ~TempDir() {
        std::error_code ec;
        fs::permissions(path, fs::perms::owner_all, fs::perm_options::add, ec);
        fs::remove_all(path, ec);
    }
};

// Sources unique to this process and call, so the process-wide memory cache
// never answers one test with another test's kernel.
std::string unique_tag() {
    static std::atomic<int> counter{0};
    return "// gpy test kernel " + std::to_string(::getpid()) + "." + std::to_string(counter++) + "\n";
}

std::string affine_kernel(float scale, float offset, const char* name = "k") {
    char body[512];
    std::snprintf(body, sizeof body,
                  "extern \"C\" void %s(float* out, const float* in, long n) {\n"
                  "  for (long i = 0; i < n; ++i) out[i] = in[i] * %.1ff + %.1ff;\n"
                  "}\n",
                  name, scale, offset);
    return unique_tag() + body;
}

void check_affine(void* fn, float scale, float offset) {
    REQUIRE(fn != nullptr);
    std::vector<float> in(1003), out(1003, -1.0f);
    for (size_t i = 0; i < in.size(); ++i) in[i] = float(i) * 0.25f - 7.0f;
    reinterpret_cast<UnaryFn>(fn)(out.data(), in.data(), long(in.size()));
    for (size_t i = 0; i < in.size(); ++i) REQUIRE(out[i] == in[i] * scale + offset);
}

std::string read_file(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

void write_file(const std::string& path, const std::string& data) {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(data.data(), std::streamsize(data.size()));
}

// Captures what the process writes to file descriptor 2.
struct StderrCapture {
    TempDir dir;
    std::string file = dir.path + "/stderr.txt";
    int saved = -1;
    StderrCapture() {
        std::fflush(stderr);
        saved = ::dup(2);
        int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        REQUIRE(fd >= 0);
        ::dup2(fd, 2);
        ::close(fd);
    }
    std::string finish() {
        std::fflush(stderr);
        if (saved >= 0) {
            ::dup2(saved, 2);
            ::close(saved);
            saved = -1;
        }
        return read_file(file);
    }
    ~StderrCapture() { finish(); }
};

size_t count_of(const std::string& hay, const std::string& needle) {
    size_t n = 0;
    for (size_t p = hay.find(needle); p != std::string::npos; p = hay.find(needle, p + 1)) ++n;
    return n;
}

struct CacheDirGuard {
    ~CacheDirGuard() { gpy::CpuJit::instance().set_cache_dir(""); }
};

}  // namespace

TEST_CASE("cpu jit: compiles, runs, then hits memory and disk", "[cpu_jit]") {
    auto& jit = gpy::CpuJit::instance();
    TempDir dir;
    CacheDirGuard guard;
    jit.set_cache_dir(dir.path);
    REQUIRE(jit.cache_entry_dir() == dir.path + "/cpu");

    std::string src = affine_kernel(2.0f, 1.0f);
    auto s0 = jit.stats();
    void* fn = jit.lookup(src, "k");
    check_affine(fn, 2.0f, 1.0f);
    auto s1 = jit.stats();
    CHECK(s1.compiles == s0.compiles + 1);
    CHECK(s1.disk_writes == s0.disk_writes + 1);
    CHECK(s1.last_compile_ms > 0);
    CHECK(s1.startup_ms > 0);
    CHECK(s1.total_compile_ms >= s0.total_compile_ms + s1.last_compile_ms - 1e-9);
    REQUIRE(fs::exists(jit.cache_path_for(src)));

    SECTION("the same source again is a memory hit") {
        void* again = jit.lookup(src, "k");
        auto s2 = jit.stats();
        CHECK(again == fn);
        CHECK(s2.compiles == s1.compiles);
        CHECK(s2.memory_hits == s1.memory_hits + 1);
        CHECK(s2.disk_hits == s1.disk_hits);
    }

    SECTION("after clearing memory it is a disk hit") {
        jit.clear_memory_cache_for_testing();
        void* loaded = jit.lookup(src, "k");
        auto s2 = jit.stats();
        CHECK(s2.compiles == s1.compiles);
        CHECK(s2.disk_hits == s1.disk_hits + 1);
        check_affine(loaded, 2.0f, 1.0f);
        // and then a memory hit again
        CHECK(jit.lookup(src, "k") == loaded);
        CHECK(jit.stats().memory_hits == s2.memory_hits + 1);
    }

    SECTION("no temporary files are left behind") {
        for (const auto& e : fs::directory_iterator(jit.cache_entry_dir()))
            CHECK(e.path().extension() == ".o");
    }
}

TEST_CASE("cpu jit: a corrupt disk entry is recompiled and rewritten", "[cpu_jit]") {
    auto& jit = gpy::CpuJit::instance();
    TempDir dir;
    CacheDirGuard guard;
    jit.set_cache_dir(dir.path);

    std::string src = affine_kernel(3.0f, -2.0f);
    check_affine(jit.lookup(src, "k"), 3.0f, -2.0f);
    std::string path = jit.cache_path_for(src);
    std::string good = read_file(path);
    REQUIRE(good.size() > gpy::DiskCache::kHeaderSize);

    auto damage = [&](const std::string& how) {
        std::string bad = good;
        if (how == "truncate") bad.resize(good.size() / 2);
        else if (how == "truncate header") bad.resize(10);
        else if (how == "empty") bad.clear();
        else if (how == "flip payload") bad[good.size() - 7] ^= 0x01;
        else if (how == "flip header") bad[20] ^= 0x40;  // the payload length
        else if (how == "flip magic") bad[0] ^= 0x20;
        else if (how == "append") bad += "x";
        write_file(path, bad);
    };

    for (const char* how : {"truncate", "truncate header", "empty", "flip payload", "flip header", "flip magic",
                            "append"}) {
        INFO(how);
        damage(how);
        jit.clear_memory_cache_for_testing();
        auto before = jit.stats();
        check_affine(jit.lookup(src, "k"), 3.0f, -2.0f);
        auto after = jit.stats();
        CHECK(after.compiles == before.compiles + 1);
        CHECK(after.disk_hits == before.disk_hits);
        CHECK(after.disk_writes == before.disk_writes + 1);
        // rewritten: the next cold lookup is a disk hit again
        CHECK(read_file(path) == good);
        jit.clear_memory_cache_for_testing();
        check_affine(jit.lookup(src, "k"), 3.0f, -2.0f);
        CHECK(jit.stats().disk_hits == after.disk_hits + 1);
    }
}

TEST_CASE("cpu jit: an entry under another key's name is not trusted", "[cpu_jit]") {
    auto& jit = gpy::CpuJit::instance();
    TempDir dir;
    CacheDirGuard guard;
    jit.set_cache_dir(dir.path);
    std::string a = affine_kernel(5.0f, 0.0f), b = affine_kernel(7.0f, 0.0f);
    jit.lookup(a, "k");
    // b's file holds a's (valid, self-consistent) entry: the key check rejects it.
    fs::copy_file(jit.cache_path_for(a), jit.cache_path_for(b));
    auto before = jit.stats();
    check_affine(jit.lookup(b, "k"), 7.0f, 0.0f);
    CHECK(jit.stats().compiles == before.compiles + 1);
}

TEST_CASE("cpu jit: an unwritable cache folder degrades to memory with one warning", "[cpu_jit]") {
    auto& jit = gpy::CpuJit::instance();
    TempDir dir;
    CacheDirGuard guard;
    // A folder under a regular file can never be created, even by root.
    std::string file = dir.path + "/plain_file";
    write_file(file, "not a folder");
    std::string bad_dir = file + "/sub";
    jit.set_cache_dir(bad_dir);

    auto before = jit.stats();
    std::string src1 = affine_kernel(1.5f, 0.5f), src2 = affine_kernel(2.5f, 0.5f);
    StderrCapture cap;
    void* f1 = jit.lookup(src1, "k");
    void* f2 = jit.lookup(src2, "k");
    void* f1again = jit.lookup(src1, "k");
    std::string err = cap.finish();
    check_affine(f1, 1.5f, 0.5f);
    check_affine(f2, 2.5f, 0.5f);
    CHECK(f1again == f1);
    auto after = jit.stats();
    CHECK(after.compiles == before.compiles + 2);
    CHECK(after.disk_writes == before.disk_writes);
    CHECK(count_of(err, "gpy: warning: kernel cache directory '" + bad_dir + "' is not writable (") == 1);
    CHECK(count_of(err, "; caching in memory only\n") == 1);
    CHECK(count_of(err, "\n") == 1);
}

TEST_CASE("cpu jit: a read-only cache folder (when permissions apply)", "[cpu_jit]") {
    if (::geteuid() == 0) {
        WARN("running as root: permissions do not stop writes, skipped (the not-a-folder case covers this)");
        return;
    }
    auto& jit = gpy::CpuJit::instance();
    TempDir dir;
    CacheDirGuard guard;
    fs::create_directories(dir.path + "/ro/cpu");
    fs::permissions(dir.path + "/ro/cpu", fs::perms::owner_read | fs::perms::owner_exec);
    jit.set_cache_dir(dir.path + "/ro");
    StderrCapture cap;
    std::string src1 = affine_kernel(4.0f, 1.0f), src2 = affine_kernel(4.0f, 2.0f);
    check_affine(jit.lookup(src1, "k"), 4.0f, 1.0f);
    check_affine(jit.lookup(src2, "k"), 4.0f, 2.0f);
    std::string err = cap.finish();
    fs::permissions(dir.path + "/ro/cpu", fs::perms::owner_all);
    CHECK(count_of(err, "is not writable") == 1);
}

TEST_CASE("cpu jit: the cache folder comes from set_cache_dir, then GPY_CACHE_DIR, then ~/.cache/gpy",
          "[cpu_jit]") {
    auto& jit = gpy::CpuJit::instance();
    CacheDirGuard guard;
    const char* old_env = std::getenv("GPY_CACHE_DIR");
    std::string saved = old_env ? old_env : "";
    ::setenv("GPY_CACHE_DIR", "/tmp/gpy_env_cache_dir", 1);
    jit.set_cache_dir("");
    CHECK(jit.cache_entry_dir() == "/tmp/gpy_env_cache_dir/cpu");
    jit.set_cache_dir("/tmp/explicit_dir/");
    CHECK(jit.cache_entry_dir() == "/tmp/explicit_dir/cpu");
    ::unsetenv("GPY_CACHE_DIR");
    jit.set_cache_dir("");
    const char* home = std::getenv("HOME");
    if (home && *home) CHECK(jit.cache_entry_dir() == std::string(home) + "/.cache/gpy/cpu");
    if (old_env) ::setenv("GPY_CACHE_DIR", saved.c_str(), 1);
}

TEST_CASE("cpu jit: a compile error throws JitError with clang's diagnostics", "[cpu_jit]") {
    auto& jit = gpy::CpuJit::instance();
    TempDir dir;
    CacheDirGuard guard;
    jit.set_cache_dir(dir.path);
    std::string src = unique_tag() +
                      "extern \"C\" void k(float* out, const float* in, long n) {\n"
                      "  for (long i = 0; i < n; ++i) out[i] = undeclared_thing(in[i]);\n"
                      "}\n";
    for (int attempt = 0; attempt < 2; ++attempt) {  // failures are not cached as successes
        auto before = jit.stats();
        try {
            jit.lookup(src, "k");
            FAIL("expected a JitError");
        } catch (const gpy::JitError& e) {
            std::string what = e.what();
            CHECK(what.find("failed to compile") != std::string::npos);
            CHECK(what.find("undeclared_thing") != std::string::npos);
            CHECK(e.compiler_log.find("kernel.cpp:3:") != std::string::npos);
            CHECK(e.compiler_log.find("error: use of undeclared identifier 'undeclared_thing'") != std::string::npos);
        }
        CHECK(jit.stats().compiles == before.compiles + 1);
    }
    CHECK((!fs::exists(dir.path + "/cpu") || fs::is_empty(dir.path + "/cpu")));
}

TEST_CASE("cpu jit: a symbol the kernel does not define throws JitError", "[cpu_jit]") {
    auto& jit = gpy::CpuJit::instance();
    TempDir dir;
    CacheDirGuard guard;
    jit.set_cache_dir(dir.path);
    std::string src = affine_kernel(1.0f, 2.0f, "two_names_a") + affine_kernel(1.0f, 3.0f, "two_names_b");
    REQUIRE_THROWS_AS(jit.lookup(src, "no_such_kernel"), gpy::JitError);
    check_affine(jit.lookup(src, "two_names_a"), 1.0f, 2.0f);
    check_affine(jit.lookup(src, "two_names_b"), 1.0f, 3.0f);
    REQUIRE_THROWS_AS(jit.lookup(src, "no_such_kernel"), gpy::JitError);
    check_affine(jit.lookup(src, "two_names_a"), 1.0f, 2.0f);
}

TEST_CASE("cpu jit: kernels with the same symbol name do not clash", "[cpu_jit]") {
    auto& jit = gpy::CpuJit::instance();
    TempDir dir;
    CacheDirGuard guard;
    jit.set_cache_dir(dir.path);
    void* a = jit.lookup(affine_kernel(2.0f, 0.0f), "k");
    void* b = jit.lookup(affine_kernel(3.0f, 0.0f), "k");
    CHECK(a != b);
    check_affine(a, 2.0f, 0.0f);
    check_affine(b, 3.0f, 0.0f);
}

TEST_CASE("cpu jit: two threads compile different kernels concurrently", "[cpu_jit]") {
    auto& jit = gpy::CpuJit::instance();
    TempDir dir;
    CacheDirGuard guard;
    jit.set_cache_dir(dir.path);
    constexpr int kPerThread = 6;
    std::vector<std::string> sources[2];
    for (int t = 0; t < 2; ++t)
        for (int i = 0; i < kPerThread; ++i) sources[t].push_back(affine_kernel(float(t + 1), float(i)));
    std::string shared = affine_kernel(9.0f, 9.0f);

    auto before = jit.stats();
    std::atomic<int> ready{0};
    std::atomic<int> failures{0};
    void* shared_fn[2] = {nullptr, nullptr};
    auto work = [&](int t) {
        ready.fetch_add(1);
        while (ready.load() < 2) std::this_thread::yield();
        try {
            shared_fn[t] = jit.lookup(shared, "k");  // both threads race for the same new kernel
            for (int i = 0; i < kPerThread; ++i) {
                auto fn = reinterpret_cast<UnaryFn>(jit.lookup(sources[t][i], "k"));
                float in[3] = {1.0f, 2.0f, 3.0f}, out[3];
                fn(out, in, 3);
                for (int j = 0; j < 3; ++j)
                    if (out[j] != in[j] * float(t + 1) + float(i)) failures.fetch_add(1);
            }
        } catch (...) {
            failures.fetch_add(100);
        }
    };
    std::thread t0(work, 0), t1(work, 1);
    t0.join();
    t1.join();
    CHECK(failures.load() == 0);
    CHECK(shared_fn[0] == shared_fn[1]);
    check_affine(shared_fn[0], 9.0f, 9.0f);
    // the shared kernel compiled once, not twice
    CHECK(jit.stats().compiles == before.compiles + 2 * kPerThread + 1);

    // and concurrent cold disk loads
    jit.clear_memory_cache_for_testing();
    auto mid = jit.stats();
    std::thread l0([&] { for (auto& s : sources[0]) jit.lookup(s, "k"); });
    std::thread l1([&] { for (auto& s : sources[1]) jit.lookup(s, "k"); });
    l0.join();
    l1.join();
    CHECK(jit.stats().compiles == mid.compiles);
    CHECK(jit.stats().disk_hits == mid.disk_hits + 2 * kPerThread);
    check_affine(jit.lookup(sources[1][3], "k"), 2.0f, 3.0f);
}

TEST_CASE("cpu jit: IEEE semantics are kept (no fast-math, no FMA contraction)", "[cpu_jit]") {
    auto& jit = gpy::CpuJit::instance();
    TempDir dir;  // never the user's ~/.cache/gpy
    CacheDirGuard guard;
    jit.set_cache_dir(dir.path);
    std::string src = unique_tag() +
                      "extern \"C\" void fp(float* out, const float* a, const float* b, const float* c, long n) {\n"
                      "  for (long i = 0; i < n; ++i) out[i] = a[i] * b[i] + c[i];\n"
                      "}\n"
                      "extern \"C\" void nan_checks(int* out, const double* x, long n) {\n"
                      "  for (long i = 0; i < n; ++i)\n"
                      "    out[i] = (x[i] != x[i]) * 1 + __builtin_isinf(x[i]) * 2 + __builtin_signbit(x[i]) * 4;\n"
                      "}\n";
    using FmaFn = void (*)(float*, const float*, const float*, const float*, long);
    auto fp = reinterpret_cast<FmaFn>(jit.lookup(src, "fp"));
    std::mt19937 rng(42);
    std::uniform_real_distribution<float> dist(-2.0f, 2.0f);
    const int n = 4096;
    std::vector<float> a(n), b(n), c(n), out(n);
    for (int i = 0; i < n; ++i) {
        a[i] = dist(rng);
        b[i] = dist(rng);
        c[i] = dist(rng);
    }
    fp(out.data(), a.data(), b.data(), c.data(), n);
    int fused = 0;
    for (int i = 0; i < n; ++i) {
        volatile float prod = a[i] * b[i];
        float expect = prod + c[i];
        if (std::memcmp(&expect, &out[i], sizeof(float)) != 0) ++fused;
    }
    CHECK(fused == 0);

    using NanFn = void (*)(int*, const double*, long);
    auto nc = reinterpret_cast<NanFn>(jit.lookup(src, "nan_checks"));
    double inf = std::numeric_limits<double>::infinity();
    std::vector<double> xs = {std::nan(""), inf, -inf, -0.0, 0.0, 1.0, -std::nan("")};
    std::vector<int> flags(xs.size());
    nc(flags.data(), xs.data(), long(xs.size()));
    CHECK(flags[0] == 1);
    CHECK(flags[1] == 2);
    CHECK(flags[2] == 6);
    CHECK(flags[3] == 4);
    CHECK(flags[4] == 0);
    CHECK(flags[5] == 0);
    CHECK((flags[6] & 1) == 1);
}

TEST_CASE("cpu jit: loops over __builtin_expf vectorise through libmvec", "[cpu_jit]") {
    auto& jit = gpy::CpuJit::instance();
    TempDir dir;  // never the user's ~/.cache/gpy
    CacheDirGuard guard;
    jit.set_cache_dir(dir.path);
    std::string target = jit.target_description();
    INFO(target);
    std::string src = unique_tag() +
                      "extern \"C\" void k(float* __restrict__ out, const float* __restrict__ in, long n) {\n"
                      "  for (long i = 0; i < n; ++i) out[i] = __builtin_expf(in[i]);\n"
                      "}\n"
                      "extern \"C\" void k2(double* __restrict__ out, const double* __restrict__ in, long n) {\n"
                      "  for (long i = 0; i < n; ++i) out[i] = __builtin_log(in[i]) + __builtin_sin(in[i]);\n"
                      "}\n";
    if (target.find("libmvec=yes") != std::string::npos && target.find("x86_64") != std::string::npos) {
        std::string ir = jit.emit_for_inspection(src, false);
        CHECK(ir.find("@_ZGV") != std::string::npos);
        CHECK(ir.find("_expf(<") != std::string::npos);
        std::string as = jit.emit_for_inspection(src, true);
        CHECK(as.find("_ZGV") != std::string::npos);
    }
    // and the vector calls resolve and compute exp
    auto fn = reinterpret_cast<UnaryFn>(jit.lookup(src, "k"));
    std::vector<float> in(1000), out(1000);
    for (int i = 0; i < 1000; ++i) in[i] = float(i) * 0.01f - 5.0f;
    fn(out.data(), in.data(), 1000);
    for (int i = 0; i < 1000; ++i) REQUIRE(out[i] == Approx(std::exp(in[i])).epsilon(1e-6));
    using DFn = void (*)(double*, const double*, long);
    auto fn2 = reinterpret_cast<DFn>(jit.lookup(src, "k2"));
    std::vector<double> din(999), dout(999);
    for (int i = 0; i < 999; ++i) din[i] = 0.01 + i * 0.37;
    fn2(dout.data(), din.data(), 999);
    for (int i = 0; i < 999; ++i) REQUIRE(dout[i] == Approx(std::log(din[i]) + std::sin(din[i])).margin(1e-12));
}

TEST_CASE("cpu jit: _Float16 and libm calls resolve", "[cpu_jit]") {
    auto& jit = gpy::CpuJit::instance();
    TempDir dir;  // never the user's ~/.cache/gpy
    CacheDirGuard guard;
    jit.set_cache_dir(dir.path);
    std::string src = unique_tag() +
                      "extern \"C\" void h(float* out, const float* in, long n) {\n"
                      "  for (long i = 0; i < n; ++i) { _Float16 t = (_Float16)in[i]; out[i] = (float)(t * t); }\n"
                      "}\n"
                      "extern \"C\" double m(double x, double y) {\n"
                      "  return __builtin_fmod(x, y) + __builtin_cbrt(x) + __builtin_atan2(x, y) + __builtin_pow(x, y);\n"
                      "}\n";
    auto h = reinterpret_cast<UnaryFn>(jit.lookup(src, "h"));
    float in[4] = {1.5f, -2.0f, 0.25f, 3.0f}, out[4];
    h(out, in, 4);
    CHECK(out[0] == 2.25f);
    CHECK(out[1] == 4.0f);
    CHECK(out[2] == 0.0625f);
    CHECK(out[3] == 9.0f);
    auto m = reinterpret_cast<double (*)(double, double)>(jit.lookup(src, "m"));
    volatile double x = 7.5, y = 2.0;  // no constant folding on the host side
    CHECK(m(x, y) == std::fmod(x, y) + std::cbrt(x) + std::atan2(x, y) + std::pow(x, y));
}

TEST_CASE("kernel cache: disk entries round-trip and reject damage", "[kernel_cache]") {
    TempDir dir;
    gpy::DiskCache cache("unit", ".bin");
    cache.set_dir(dir.path);
    std::string key = gpy::strong_hash_hex({"source", "options"});
    REQUIRE(key.size() == 64);
    CHECK(key != gpy::strong_hash_hex({"sourceo", "ptions"}));
    std::string payload("\0binary\xff payload", 16);
    std::string got;
    CHECK(cache.load(key, got) == gpy::DiskCache::Load::Missing);
    REQUIRE(cache.store(key, payload));
    CHECK(cache.load(key, got) == gpy::DiskCache::Load::Hit);
    CHECK(got == payload);
    CHECK(read_file(cache.path_for(key)) == gpy::DiskCache::encode(key, payload));
    std::string other = gpy::strong_hash_hex({"other"});
    fs::copy_file(cache.path_for(key), cache.path_for(other));
    CHECK(cache.load(other, got) == gpy::DiskCache::Load::Corrupt);
    std::string bytes = read_file(cache.path_for(key));
    bytes[bytes.size() - 1] ^= 1;
    write_file(cache.path_for(key), bytes);
    CHECK(cache.load(key, got) == gpy::DiskCache::Load::Corrupt);
    REQUIRE(cache.store(key, ""));
    CHECK(cache.load(key, got) == gpy::DiskCache::Load::Hit);
    CHECK(got.empty());
}

TEST_CASE("kernel cache: SHA-256 matches the FIPS 180-4 vectors", "[kernel_cache]") {
    auto hex = [](const std::string& raw) {
        static const char* d = "0123456789abcdef";
        std::string h;
        for (unsigned char c : raw) {
            h += d[c >> 4];
            h += d[c & 15];
        }
        return h;
    };
    CHECK(hex(gpy::sha256_bytes("")) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    CHECK(hex(gpy::sha256_bytes("abc")) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    CHECK(hex(gpy::sha256_bytes("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")) ==
          "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    CHECK(hex(gpy::sha256_bytes(std::string(1000000, 'a'))) ==
          "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    // lengths around the padding boundary agree whether fed at once or not
    for (size_t n : {55, 56, 63, 64, 65, 119, 120, 127, 128}) {
        std::string s(n, 'x');
        CHECK(gpy::sha256_bytes(s).size() == 32);
    }
}
