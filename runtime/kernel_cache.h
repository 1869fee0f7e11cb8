// The kernel cache: compiled kernels kept in memory (source -> loaded module
// and its symbol addresses) and on disk (key -> object code or cubin).
//
// Memory: one entry per kernel source, found through std::hash of the source
// and confirmed by full string equality (a warm hit hashes the source once and
// takes a shared lock). While one thread builds an entry, other threads asking
// for the same source wait for it instead of compiling it twice.
//
// Disk: one file per key, the key being a SHA-256 over everything that shapes
// the output (source, compiler version, options, target). A file is
//   magic "GPYKCACH" | u32 format version | u32 header size | u64 payload length
//   | key (32 bytes) | SHA-256 of payload (32 bytes) | payload
// written to a unique temp file in the same folder and renamed into place, so
// another process sees the whole file or none. A file that fails any check is
// treated as missing (the caller recompiles and rewrites it). A folder that
// cannot be created or written degrades to memory-only caching with one
// warning line on stderr.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <initializer_list>
#include <memory>
#include <mutex>
#include <set>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace gpy {

// SHA-256 over the parts, each prefixed by its length (so ("ab","c") and
// ("a","bc") differ), as 64 lowercase hex digits.
std::string strong_hash_hex(std::initializer_list<std::string_view> parts);

// The SHA-256 of `data`, 32 raw bytes.
std::string sha256_bytes(std::string_view data);

// The cache folder when none was set explicitly: $GPY_CACHE_DIR if set and
// non-empty, else $HOME/.cache/gpy (the password database's home when HOME is unset).
std::string default_kernel_cache_dir();

// ---------------------------------------------------------------- disk ----

class DiskCache {
public:
    static constexpr uint32_t kFormatVersion = 1;
    static constexpr size_t kHeaderSize = 8 + 4 + 4 + 8 + 32 + 32;

    // Entries live in <dir>/<subdir>/<key><extension>.
    DiskCache(std::string subdir, std::string extension);

    // "" = the default (see default_kernel_cache_dir), resolved on first use.
    void set_dir(const std::string& dir);
    // The resolved folder holding the entries.
    std::string entry_dir();
    std::string path_for(const std::string& key_hex);

    enum class Load { Hit, Missing, Corrupt };
    // Reads and verifies the entry for key_hex into `payload`.
    Load load(const std::string& key_hex, std::string& payload);

    // Writes the entry atomically. Returns false (and warns once per folder)
    // when the folder is not writable; later stores to it are skipped.
    bool store(const std::string& key_hex, std::string_view payload);

    // True until a store failed for the current folder.
    bool writable();

    // Serialises an entry (header + payload), exposed for tests.
    static std::string encode(const std::string& key_hex, std::string_view payload);

private:
    std::string resolve_locked();
    void disable_locked(const std::string& dir, const std::string& why);

    std::mutex mutex_;
    std::string subdir_, extension_;
    std::string requested_dir_;   // "" = default
    std::string resolved_;        // "" = not resolved yet
    bool created_ = false;        // folder known to exist
    bool writable_ = true;
    std::set<std::string> warned_;  // folders already warned about
    std::atomic<bool> warned_not_regular_{false};
};

// -------------------------------------------------------------- memory ----

class KernelMemoryCache {
public:
    struct Entry {
        explicit Entry(std::string_view src) : source(src) {}
        const std::string source;
        // Guarded by `mutex`:
        std::mutex mutex;
        std::condition_variable cv;
        enum class State { Building, Ready, Failed } state = State::Building;
        std::exception_ptr error;
        void* handle = nullptr;  // the backend's loaded module (CPU: an ORC JITDylib)
        // Guarded by the cache's map mutex: symbol name -> address.
        std::vector<std::pair<std::string, void*>> symbols;
    };
    using EntryPtr = std::shared_ptr<Entry>;

    // Fast path: the cached address of `symbol` in the ready kernel compiled
    // from `source`, or nullptr.
    void* find_symbol(std::string_view source, std::string_view symbol) const;

    // The entry for `source`; `second` is true when the caller created it and
    // must finish it with publish() or fail().
    std::pair<EntryPtr, bool> acquire(std::string_view source);

    void publish(const EntryPtr& e, void* handle);
    // Wakes waiters with `error` and forgets the entry (a later call retries).
    void fail(const EntryPtr& e, std::exception_ptr error);
    // Blocks while the entry is being built; returns its handle or rethrows.
    void* wait(const EntryPtr& e);

    void add_symbol(const EntryPtr& e, std::string_view symbol, void* address);

    void clear();
    size_t size() const;

private:
    mutable std::shared_mutex mutex_;
    // Keys view into Entry::source.
    std::unordered_map<std::string_view, EntryPtr> map_;
};

// The process's one DiskCache for (root, subdir, extension): each
// interpreter's kernels go to its own cache folder (Config::cache_dir; ""
// is the default folder), and interpreters sharing a folder share its
// cache. Thread-safe; the caches live until exit.
DiskCache& shared_disk_cache(const std::string& root, const std::string& subdir, const std::string& extension);

}  // namespace gpy
