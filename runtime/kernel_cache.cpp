// The kernel cache: see kernel_cache.h for the disk format and the rules.
#include "runtime/kernel_cache.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <map>
#include <tuple>

#include <fcntl.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>


namespace gpy {

namespace {

constexpr char kMagic[8] = {'G', 'P', 'Y', 'K', 'C', 'A', 'C', 'H'};
constexpr size_t kMaxPayload = size_t(1) << 30;

void put_u32(std::string& out, uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(char((v >> (8 * i)) & 0xff));
}
void put_u64(std::string& out, uint64_t v) {
    for (int i = 0; i < 8; ++i) out.push_back(char((v >> (8 * i)) & 0xff));
}
uint64_t get_le(const char* p, int bytes) {
    uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v |= uint64_t(uint8_t(p[i])) << (8 * i);
    return v;
}

std::string hex(const uint8_t* p, size_t n) {
    static const char* digits = "0123456789abcdef";
    std::string s(2 * n, '0');
    for (size_t i = 0; i < n; ++i) {
        s[2 * i] = digits[p[i] >> 4];
        s[2 * i + 1] = digits[p[i] & 15];
    }
    return s;
}

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// 32 raw bytes from 64 hex digits; anything else hashes to 32 bytes (keys
// are always produced by strong_hash_hex, this only keeps encode() total).
std::string key_bytes(const std::string& key_hex) {
    if (key_hex.size() == 64) {
        std::string out(32, '\0');
        bool ok = true;
        for (size_t i = 0; i < 32 && ok; ++i) {
            int hi = hex_digit(key_hex[2 * i]), lo = hex_digit(key_hex[2 * i + 1]);
            if (hi < 0 || lo < 0) ok = false;
            else out[i] = char(hi * 16 + lo);
        }
        if (ok) return out;
    }
    return sha256_bytes(key_hex);
}

bool read_whole_file(const std::string& path, std::string& out, bool& missing, bool& not_regular) {
    missing = not_regular = false;
    // O_NONBLOCK: opening a FIFO (or a device) put in place of an entry
    // must not wait for a writer; only regular files are read.
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        missing = true;
        return false;
    }
    struct stat st {};
    bool stat_ok = ::fstat(fd, &st) == 0;
    if (!stat_ok || !S_ISREG(st.st_mode) || size_t(st.st_size) > kMaxPayload + DiskCache::kHeaderSize) {
        not_regular = stat_ok && !S_ISREG(st.st_mode);
        ::close(fd);
        return false;
    }
    out.resize(size_t(st.st_size));
    size_t got = 0;
    while (got < out.size()) {
        ssize_t r = ::read(fd, out.data() + got, out.size() - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        got += size_t(r);
    }
    ::close(fd);
    if (got != out.size()) return false;
    return true;
}

bool write_all(int fd, const char* p, size_t n, int& err) {
    while (n > 0) {
        ssize_t w = ::write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            err = w < 0 ? errno : ENOSPC;
            return false;
        }
        p += w;
        n -= size_t(w);
    }
    return true;
}

}  // namespace

// ------------------------------------------------------------- SHA-256 ----
// FIPS 180-4, self-contained so that this file (and gpy_core) does not need
// LLVM: the compiler libraries are loaded only when a kernel is compiled.

namespace {

class Sha256 {
public:
    void update(const void* data, size_t n) {
        auto p = static_cast<const uint8_t*>(data);
        total_ += n;
        if (fill_) {
            size_t take = std::min(n, sizeof buf_ - fill_);
            std::memcpy(buf_ + fill_, p, take);
            fill_ += take;
            p += take;
            n -= take;
            if (fill_ < sizeof buf_) return;
            block(buf_);
            fill_ = 0;
        }
        for (; n >= 64; p += 64, n -= 64) block(p);
        std::memcpy(buf_, p, n);
        fill_ = n;
    }
    std::string final() {
        uint64_t bits = total_ * 8;
        uint8_t pad[72] = {0x80};
        size_t padlen = (fill_ < 56 ? 56 : 120) - fill_;
        update(pad, padlen);
        uint8_t len[8];
        for (int i = 0; i < 8; ++i) len[i] = uint8_t(bits >> (56 - 8 * i));
        update(len, 8);
        std::string out(32, '\0');
        for (int i = 0; i < 8; ++i)
            for (int j = 0; j < 4; ++j) out[size_t(4 * i + j)] = char((h_[i] >> (24 - 8 * j)) & 0xff);
        return out;
    }

private:
    static uint32_t rotr(uint32_t x, int r) { return (x >> r) | (x << (32 - r)); }
    void block(const uint8_t* p) {
        static const uint32_t k[64] = {
            0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
            0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
            0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
            0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
            0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
            0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
            0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
            0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};
        uint32_t w[64];
        for (int i = 0; i < 16; ++i)
            w[i] = uint32_t(p[4 * i]) << 24 | uint32_t(p[4 * i + 1]) << 16 | uint32_t(p[4 * i + 2]) << 8 |
                   uint32_t(p[4 * i + 3]);
        for (int i = 16; i < 64; ++i) {
            uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
            uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16] + s0 + w[i - 7] + s1;
        }
        uint32_t a = h_[0], b = h_[1], c = h_[2], d = h_[3], e = h_[4], f = h_[5], g = h_[6], h = h_[7];
        for (int i = 0; i < 64; ++i) {
            uint32_t t1 = h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + k[i] + w[i];
            uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
            h = g;
            g = f;
            f = e;
            e = d + t1;
            d = c;
            c = b;
            b = a;
            a = t1 + t2;
        }
        h_[0] += a;
        h_[1] += b;
        h_[2] += c;
        h_[3] += d;
        h_[4] += e;
        h_[5] += f;
        h_[6] += g;
        h_[7] += h;
    }

    uint32_t h_[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    uint8_t buf_[64];
    size_t fill_ = 0;
    uint64_t total_ = 0;
};

}  // namespace

std::string sha256_bytes(std::string_view data) {
    Sha256 h;
    h.update(data.data(), data.size());
    return h.final();
}

std::string strong_hash_hex(std::initializer_list<std::string_view> parts) {
    Sha256 h;
    for (std::string_view p : parts) {
        std::string len;
        put_u64(len, p.size());
        h.update(len.data(), len.size());
        h.update(p.data(), p.size());
    }
    std::string r = h.final();
    return hex(reinterpret_cast<const uint8_t*>(r.data()), r.size());
}

std::string default_kernel_cache_dir() {
    if (const char* env = std::getenv("GPY_CACHE_DIR"); env && *env) return env;
    std::string home;
    if (const char* h = std::getenv("HOME"); h && *h) {
        home = h;
    } else if (struct passwd* pw = ::getpwuid(::getuid()); pw && pw->pw_dir) {
        home = pw->pw_dir;
    } else {
        home = "/tmp";
    }
    return home + "/.cache/gpy";
}

// ---------------------------------------------------------------- disk ----

DiskCache::DiskCache(std::string subdir, std::string extension)
    : subdir_(std::move(subdir)), extension_(std::move(extension)) {}

void DiskCache::set_dir(const std::string& dir) {
    std::lock_guard<std::mutex> lock(mutex_);
    requested_dir_ = dir;
    resolved_.clear();
    created_ = false;
    writable_ = true;
}

std::string DiskCache::resolve_locked() {
    if (resolved_.empty()) {
        std::string root = requested_dir_.empty() ? default_kernel_cache_dir() : requested_dir_;
        while (root.size() > 1 && root.back() == '/') root.pop_back();
        resolved_ = root;
    }
    return resolved_;
}

std::string DiskCache::entry_dir() {
    std::lock_guard<std::mutex> lock(mutex_);
    return resolve_locked() + "/" + subdir_;
}

std::string DiskCache::path_for(const std::string& key_hex) {
    return entry_dir() + "/" + key_hex + extension_;
}

bool DiskCache::writable() {
    std::lock_guard<std::mutex> lock(mutex_);
    return writable_;
}

std::string DiskCache::encode(const std::string& key_hex, std::string_view payload) {
    std::string out;
    out.reserve(kHeaderSize + payload.size());
    out.append(kMagic, sizeof kMagic);
    put_u32(out, kFormatVersion);
    put_u32(out, uint32_t(kHeaderSize));
    put_u64(out, payload.size());
    out += key_bytes(key_hex);
    out += sha256_bytes(payload);
    out.append(payload.data(), payload.size());
    return out;
}

DiskCache::Load DiskCache::load(const std::string& key_hex, std::string& payload) {
    std::string path = path_for(key_hex);
    std::string data;
    bool missing = false, not_regular = false;
    if (!read_whole_file(path, data, missing, not_regular)) {
        if (not_regular && !warned_not_regular_.exchange(true))
            std::fprintf(stderr, "gpy: warning: kernel cache entry '%s' is not a regular file; ignored (the kernel is compiled again)\n",
                         path.c_str());
        return missing ? Load::Missing : Load::Corrupt;
    }
    if (data.size() < kHeaderSize) return Load::Corrupt;
    const char* p = data.data();
    if (std::memcmp(p, kMagic, sizeof kMagic) != 0) return Load::Corrupt;
    if (get_le(p + 8, 4) != kFormatVersion) return Load::Corrupt;
    if (get_le(p + 12, 4) != kHeaderSize) return Load::Corrupt;
    uint64_t len = get_le(p + 16, 8);
    if (len != data.size() - kHeaderSize) return Load::Corrupt;
    if (std::memcmp(p + 24, key_bytes(key_hex).data(), 32) != 0) return Load::Corrupt;
    std::string_view body(p + kHeaderSize, size_t(len));
    if (sha256_bytes(body) != std::string_view(p + 56, 32)) return Load::Corrupt;
    payload.assign(body.data(), body.size());
    return Load::Hit;
}

void DiskCache::disable_locked(const std::string& dir, const std::string& why) {
    writable_ = false;
    if (warned_.insert(dir).second) {
        std::fprintf(stderr,
                     "gpy: warning: kernel cache directory '%s' is not writable (%s); caching in memory only\n",
                     dir.c_str(), why.c_str());
        std::fflush(stderr);
    }
}

bool DiskCache::store(const std::string& key_hex, std::string_view payload) {
    std::string root, dir;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!writable_) return false;
        root = resolve_locked();
        dir = root + "/" + subdir_;
        if (!created_) {
            std::error_code ec;
            std::filesystem::create_directories(dir, ec);
            if (ec || !std::filesystem::is_directory(dir, ec)) {
                disable_locked(root, ec ? ec.message() : std::string(std::strerror(ENOTDIR)));
                return false;
            }
            created_ = true;
        }
    }

    std::string bytes = encode(key_hex, payload);
    static std::atomic<uint64_t> counter{0};
    std::string final_path = dir + "/" + key_hex + extension_;
    std::string tmp;
    int fd = -1;
    int err = 0;
    for (int attempt = 0; attempt < 8 && fd < 0; ++attempt) {
        uint64_t n = counter.fetch_add(1, std::memory_order_relaxed);
        size_t salt = std::hash<const void*>{}(&tmp) ^ size_t(n * 0x9e3779b97f4a7c15ull);
        tmp = dir + "/." + key_hex + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(n) + "." +
              std::to_string(salt & 0xffffff);
        fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd < 0) {
            err = errno;
            if (err != EEXIST) break;
        }
    }
    bool ok = fd >= 0;
    if (ok) {
        ok = write_all(fd, bytes.data(), bytes.size(), err);
        if (::close(fd) != 0 && ok) {
            err = errno;
            ok = false;
        }
        if (ok && ::rename(tmp.c_str(), final_path.c_str()) != 0) {
            err = errno;
            ok = false;
        }
        if (!ok) ::unlink(tmp.c_str());
    }
    if (!ok) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (resolve_locked() == root) disable_locked(root, std::strerror(err ? err : EIO));
    }
    return ok;
}

// -------------------------------------------------------------- memory ----

void* KernelMemoryCache::find_symbol(std::string_view source, std::string_view symbol) const {
    std::shared_lock<std::shared_mutex> lock(mutex_);
    auto it = map_.find(source);
    if (it == map_.end()) return nullptr;
    for (const auto& [name, addr] : it->second->symbols)
        if (name == symbol) return addr;
    return nullptr;
}

std::pair<KernelMemoryCache::EntryPtr, bool> KernelMemoryCache::acquire(std::string_view source) {
    {
        std::shared_lock<std::shared_mutex> lock(mutex_);
        auto it = map_.find(source);
        if (it != map_.end()) return {it->second, false};
    }
    std::unique_lock<std::shared_mutex> lock(mutex_);
    auto it = map_.find(source);
    if (it != map_.end()) return {it->second, false};
    auto e = std::make_shared<Entry>(source);
    map_.emplace(std::string_view(e->source), e);
    return {e, true};
}

void KernelMemoryCache::publish(const EntryPtr& e, void* handle) {
    {
        std::lock_guard<std::mutex> lock(e->mutex);
        e->handle = handle;
        e->state = Entry::State::Ready;
    }
    e->cv.notify_all();
}

void KernelMemoryCache::fail(const EntryPtr& e, std::exception_ptr error) {
    {
        std::unique_lock<std::shared_mutex> lock(mutex_);
        auto it = map_.find(e->source);
        if (it != map_.end() && it->second == e) map_.erase(it);
    }
    {
        std::lock_guard<std::mutex> lock(e->mutex);
        e->error = std::move(error);
        e->state = Entry::State::Failed;
    }
    e->cv.notify_all();
}

void* KernelMemoryCache::wait(const EntryPtr& e) {
    std::unique_lock<std::mutex> lock(e->mutex);
    e->cv.wait(lock, [&] { return e->state != Entry::State::Building; });
    if (e->state == Entry::State::Failed) std::rethrow_exception(e->error);
    return e->handle;
}

void KernelMemoryCache::add_symbol(const EntryPtr& e, std::string_view symbol, void* address) {
    std::unique_lock<std::shared_mutex> lock(mutex_);
    for (const auto& [name, addr] : e->symbols)
        if (name == symbol) return;
    e->symbols.emplace_back(std::string(symbol), address);
}

void KernelMemoryCache::clear() {
    std::unique_lock<std::shared_mutex> lock(mutex_);
    map_.clear();
}

size_t KernelMemoryCache::size() const {
    std::shared_lock<std::shared_mutex> lock(mutex_);
    return map_.size();
}

DiskCache& shared_disk_cache(const std::string& root, const std::string& subdir, const std::string& extension) {
    static std::mutex mu;
    static auto* caches = new std::map<std::tuple<std::string, std::string, std::string>, std::unique_ptr<DiskCache>>();
    std::lock_guard<std::mutex> lock(mu);
    auto& slot = (*caches)[{root, subdir, extension}];
    if (!slot) {
        slot = std::make_unique<DiskCache>(subdir, extension);
        slot->set_dir(root);
    }
    return *slot;
}

}  // namespace gpy
