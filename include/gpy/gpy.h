// gpy embedding API (C++). One Interpreter holds all of a session's state:
// two interpreters in one process have their own backend, device, streams,
// kernel cache folder, limits, math mode, profile table and kernel record
// (docs/architecture.md, "Interpreter contexts"). They share the process's
// compiled kernels.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>
#include <string_view>
#include <vector>

// DLPack's tensors (include/gpy/dlpack.h), for Interpreter::set_dlpack & co.
struct DLManagedTensor;
struct DLManagedTensorVersioned;

namespace gpy {

class Value;  // a script value (internal: lang/value.h)

// Where printed text and diagnostics go. Defaults write to stdout / stderr.
// A sink receives whole lines as they are printed (print(..., end='') text
// waits for its line's end, or for the end of the run; past 64 KiB of
// text without a newline, a piece is delivered).
using TextSink = std::function<void(std::string_view)>;

struct Config {
    TextSink out;                   // print(), REPL echo
    TextSink err;                   // diagnostics, tracebacks
    std::vector<std::string> argv;  // sys.argv
    std::string backend = "auto";   // auto | cpu | cuda
    int device = 0;
    std::string cache_dir;          // kernel cache folder ("" = $GPY_CACHE_DIR, else ~/.cache/gpy)
    bool fast_math = false;         // GPU kernels with --use_fast_math (gpy --fast-math)
    // gpy --check-kernels: raw kernels run on the CPU with every access
    // through a pointer parameter checked against its array (IndexError at
    // the first outside, naming thread, block and line). With backend "auto"
    // the interpreter runs on the CPU; with "cuda" the kernels run unchecked.
    bool check_kernels = false;
    std::string dump_kernels_dir;
    bool verbose = false;
    bool profile = false;           // --profile: per-kernel table to err when the interpreter ends (codegen/profile.h)
    bool color = false;             // ANSI colours in diagnostics
    // Fuzzing / sandboxing: abort a run with RuntimeError after this many loop
    // iterations + calls (0 = unlimited).
    long long max_steps = 0;
    // Sandboxing: an array of more bytes raises MemoryError (0 = unlimited).
    // Strings and lists that a program asks to grow past it (or past the
    // machine's memory) raise MemoryError before allocating, per interpreter.
    size_t max_array_bytes = 0;
    // A budget for all of the interpreter's arrays together: an allocation
    // that would take the bytes of its live arrays past it raises
    // MemoryError (0 = unlimited). Memory the host lends (ArrayRef, DLPack)
    // does not count.
    size_t max_memory_bytes = 0;
    int recursion_limit = 1000;     // as Python's sys.getrecursionlimit()
    int debug = 0;                  // 1: report each kernel and what forced it (stderr); 3: with its source
    bool lazy = true;               // false: an array is computed when it is bound to a name
    // A folder to read the array module's language files (numpy/py/*.py)
    // from instead of the copies built in: edit them without rebuilding.
    std::string numpy_py_dir;

    // These defaults with the user's GPY_* environment variables applied,
    // read here and nowhere else (the gpy command and its REPL start from
    // it; a Config made directly ignores the environment):
    //   GPY_BACKEND=cpu|cuda  GPY_FAST_MATH=1  GPY_CHECK_KERNELS=1  GPY_DEBUG=N  GPY_LAZY=0
    //   GPY_NUMPY_PY_DIR=numpy/py
    // Process-wide settings stay in the environment: GPY_CACHE_DIR (the
    // default kernel cache folder), GPY_NUM_THREADS, GPY_TIER0, GPY_TF32,
    // GPY_GPU_MEMORY_LIMIT, GPY_SHADOW_NVRTC, the GPY_*_LIB library paths,
    // and GPY_EXPERIMENTS (bench/ harnesses).
    static Config from_environment();
};

// Outcome of running a piece of source.
enum class Status {
    Ok,           // ran to completion
    SyntaxError,  // did not parse (exit code 2 for scripts)
    RuntimeError, // uncaught exception (exit code 1)
    Exit,         // sys.exit() was called; see exit_code
};

// An uncaught exception or syntax error, as data: `type` is the exception's
// class name ("ValueError", "SyntaxError"), `message` its text, and the
// location is the innermost frame of the user's code (0 when unknown).
struct ErrorInfo {
    std::string type, message, file;
    int line = 0, column = 0;
    // The traceback, outermost call first (as Python prints it); the last
    // frame is where the exception was raised (a library frame: the array
    // module's functions written in the language).
    struct Frame {
        std::string function, file;
        int line = 0, column = 0;
    };
    std::vector<Frame> traceback;
};

struct Result {
    Status status = Status::Ok;
    int exit_code = 0;  // 0, 1, 2, or the value passed to sys.exit
    ErrorInfo error;    // set for SyntaxError and RuntimeError
};

// ---- values across the boundary ----

// An array's element type, NumPy's names.
enum class ElementType : uint8_t { Bool, Int8, Int16, Int32, Int64, UInt8, UInt16, UInt32, UInt64, Float16, Float32, Float64, Complex64, Complex128 };

// Array memory shared with the host, not copied. Passed in (set), the
// script's array reads and writes `data` in place; `owner` is held until
// the script's last view of the memory is gone, then released (so a
// shared_ptr with a deleter frees the host's buffer exactly then). Read out
// (get), `data` points into the interpreter's array and `owner` keeps that
// memory alive for as long as the host holds it.
// A read-only ArrayRef, or host memory passed to an interpreter on a GPU,
// is copied (gpy has no read-only arrays) and `owner` released at once.
struct ArrayRef {
    void* data = nullptr;
    std::vector<int64_t> shape;
    std::vector<int64_t> strides;  // in bytes; empty: C-contiguous
    ElementType dtype = ElementType::Float64;
    bool readonly = false;
    std::shared_ptr<void> owner;
    int device = -1;  // -1: host memory; n >= 0: memory of CUDA device n (a device pointer)
};

// A value on the host side: None, bool, int, float, str or an array.
using HostValue = std::variant<std::monostate, bool, int64_t, double, std::string, ArrayRef>;

// A host function the script can call: its arguments converted to
// HostValues (a list, dict or other object is a TypeError in the script).
// An exception it throws becomes the script's: std::invalid_argument a
// ValueError, std::out_of_range an IndexError, std::bad_alloc a
// MemoryError, a ScriptError the built-in exception its info.type names
// (TypeError, KeyError, ...), any other std::exception a RuntimeError, with
// what().
using HostFunction = std::function<HostValue(const std::vector<HostValue>& args)>;

// What Interpreter::get/call throw when a value cannot cross (a type with
// no HostValue form) or a called script function raised: `info` says what.
struct ScriptError : std::runtime_error {
    ErrorInfo info;
    explicit ScriptError(ErrorInfo i) : std::runtime_error(i.type + ": " + i.message), info(std::move(i)) {}
};

// What a call into an Interpreter throws while another thread is inside
// it: an interpreter runs one call at a time (it may move between threads).
struct BusyError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Whether a REPL buffer is a complete input, needs more lines, or is an error.
enum class InputState { Complete, Incomplete, Invalid };

// Threads: an Interpreter may be used from any thread, one call at a time.
// A call made while another thread is inside it throws BusyError (run_*
// return it as a RuntimeError result instead); interrupt() may come from
// any thread at any time. A host function may call back into its own
// interpreter (same thread).
class Interpreter {
public:
    explicit Interpreter(Config config = {});
    ~Interpreter();
    Interpreter(const Interpreter&) = delete;
    Interpreter& operator=(const Interpreter&) = delete;

    // Run a whole program. Errors are rendered to the err sink.
    Result run_file(const std::string& path);
    Result run_string(std::string_view source, std::string_view filename = "<string>");

    // REPL: run one complete input; expression statements echo their repr and
    // bind `_`. State persists between calls.
    Result run_interactive(std::string_view source);
    InputState check_input(std::string_view source);

    // Tab completion: candidates that extend the identifier or dotted name that
    // ends `line_before_cursor` (names, keywords, module members, attributes).
    // Each candidate is the full replacement for the last dotted component.
    std::vector<std::string> complete(std::string_view line_before_cursor);

    // help(name)-style one-liner for a name, or empty.
    std::string help_text(std::string_view name);

    // The kernels this interpreter has run: how many, and the most recent
    // (up to 256) whose launch number is >= `first` (the REPL's %kernels;
    // an embedder's check that its statement fused into one kernel).
    struct KernelInfo {
        uint64_t number;
        std::string name, summary;
    };
    uint64_t kernels_launched() const;
    std::vector<KernelInfo> kernels_since(uint64_t first) const;

    // Globals of __main__. set() binds `name` (an ArrayRef without copying,
    // on the CPU backend; on a GPU the array is copied to the device). get()
    // is empty when `name` is unbound, and throws ScriptError for a value
    // with no HostValue form; an array read out is computed first.
    void set(std::string_view name, const HostValue& value);
    std::optional<HostValue> get(std::string_view name);
    // Binds `name` in __main__ to a function that calls `fn`.
    void define(std::string_view name, HostFunction fn);
    // Calls the global callable `name` with `args`; its exception is thrown
    // as ScriptError (with the raising line).
    HostValue call(std::string_view name, const std::vector<HostValue>& args = {});
    // A handle to the callable bound to `name` now (a ScriptError NameError
    // when unbound): calls through it reach that function even after the
    // script rebinds the name, without a lookup. It holds the function
    // alive; use it with the interpreter it came from, while that lives.
    class Function {
    public:
        Function() = default;
        explicit operator bool() const { return ref_ != nullptr; }
    private:
        friend class Interpreter;
        std::shared_ptr<void> ref_;
    };
    Function function(std::string_view name);
    HostValue call(const Function& f, const std::vector<HostValue>& args = {});

    // DLPack (include/gpy/dlpack.h), without copying. set_dlpack binds
    // `name` to an array over the tensor's memory and owns the tensor from
    // the call on (even when it throws): its deleter runs exactly once, when
    // the script's last view is gone. get_dlpack* return a tensor over the
    // global array `name` (computed first; on a GPU, device memory whose
    // queued work has finished unless use_stream() put gpy's work on the
    // host's stream), null when unbound; the caller calls its deleter once.
    void set_dlpack(std::string_view name, DLManagedTensorVersioned* tensor);
    void set_dlpack(std::string_view name, DLManagedTensor* tensor);
    DLManagedTensorVersioned* get_dlpack_versioned(std::string_view name);
    DLManagedTensor* get_dlpack(std::string_view name);
    // Work on the current device goes to the host's CUDA stream (a CUstream
    // or cudaStream_t; null: gpy's own again) from now on. Throws
    // std::logic_error on the CPU backend.
    void use_stream(void* cuda_stream);

    // Async-signal-safe: the running statement raises KeyboardInterrupt at its
    // next loop iteration or call.
    void interrupt();

    // True when the interpreter is allowed to print colours, etc.
    const Config& config() const;

    struct Impl;

private:
    HostValue call_value(const Value& fn, const std::vector<HostValue>& args);  // a script value (lang/value.h)
    std::unique_ptr<Impl> impl_;
};

// Version string, e.g. "0.1.0".
const char* version();

// On a GPU, new kernels compile on background threads while a program runs
// (tier 0). Call this before the process exits (the gpy CLI does): it waits
// for compiles under way, so they reach the disk cache, and drops queued ones.
void finish_background_work();

}  // namespace gpy
