// Raw CUDA kernels on the CPU: the user's source after the emulation prelude
// (runtime/raw_cpu_prelude.h), with an entry point and a parameter table per
// kernel, compiled by the CPU JIT (cached like generated kernels), and blocks
// handed to the thread pool.
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <regex>
#include <set>

#include <sys/mman.h>
#include <unistd.h>

#include "base/interrupt.h"
#include "codegen/prelude.h"
#include "runtime/cpu_jit.h"
#include "runtime/nvrtc.h"
#include "runtime/nvrtc_shadow.h"
#include "runtime/raw_analysis.h"
#include "runtime/raw_cpu_prelude.h"
#include "runtime/raw_headers.h"
#include "runtime/raw_kernel.h"
#include "runtime/thread_pool.h"

namespace gpy {

namespace {

constexpr size_t kFiberStack = size_t(1) << 18;  // gpy_emu::kStack
constexpr size_t kDynamicShared = size_t(256) << 10;  // gpy_dynamic_shared's size

using RunFn = int (*)(void**, const unsigned*, unsigned long, unsigned long, char*, int, const volatile int*);

struct CpuRawFunction : RawFunction {
    RunFn run = nullptr;
    bool fibers = false;  // barriers or warp operations: a fiber per thread
    bool serial = false;  // statics (shared memory) or fibers: one block at a time
};

// ::gpy_emu::Checked<T> and ::gpy_emu::Violation of runtime/raw_cpu_prelude.h,
// as the host builds and reads them (the same layout).
struct CheckedArg {
    void* p;
    const char* lo;
    const char* hi;
    void* violation;
    int line;
    const char* name;
    const char* file;
};
struct Violation {
    int hit, line;
    const char* name;
    const char* file;
    const char* lo;
    long offset, extent, rel;
    unsigned size;
    unsigned tid[3], bid[3];
};

// `extern __shared__ T name[];` (dynamic shared memory) becomes a pointer into
// the module's buffer; __align__ is dropped (the buffer is 16-byte aligned).
std::string rewrite_dynamic_shared(const std::string& code) {
    static const std::regex decl(R"(extern\s+__shared__\s+([^;\[\]]*?)\s*\b(\w+)\s*\[\s*\]\s*;)");
    static const std::regex align(R"(__align__\s*\(\s*\d+\s*\))");
    std::string out;
    auto begin = std::sregex_iterator(code.begin(), code.end(), decl);
    size_t last = 0;
    for (auto it = begin; it != std::sregex_iterator(); ++it) {
        const std::smatch& m = *it;
        out += code.substr(last, size_t(m.position()) - last);
        std::string type = std::regex_replace(m[1].str(), align, "");
        out += type + "* const " + m[2].str() + " = (" + type + "*)gpy_dynamic_shared;";
        last = size_t(m.position() + m.length());
    }
    return out + code.substr(last);
}

// `extern "C" __constant__ T x[n];` defines x in CUDA; in C++ the one-line
// `extern "C"` form only declares it. The block form defines it.
std::string define_extern_c_globals(const std::string& code) {
    static const std::regex decl(R"(extern\s+"C"\s+(__(?:constant|device)__\s+[^;{}()]*;))");
    return std::regex_replace(code, decl, "extern \"C\" { $1 }");
}

// A view of CUDA source that steps over comments, strings and character
// literals, and finds the bracket closing another.
struct CodeScan {
    const std::string& code;
    size_t n;
    explicit CodeScan(const std::string& c) : code(c), n(c.size()) {}
    // The position after the comment or literal starting at i (i itself if none does).
    size_t skip(size_t i) const {
        if (code.compare(i, 2, "//") == 0) return std::min(n, code.find('\n', i) == std::string::npos ? n : code.find('\n', i));
        if (code.compare(i, 2, "/*") == 0) return code.find("*/", i + 2) == std::string::npos ? n : code.find("*/", i + 2) + 2;
        if (code[i] == '"' || code[i] == '\'') {
            const char q = code[i];
            for (size_t j = i + 1; j < n; ++j) {
                if (code[j] == '\\') ++j;
                else if (code[j] == q) return j + 1;
            }
            return n;
        }
        return i;
    }
    // The position of the bracket closing the one at `open`, or npos.
    size_t closing(size_t open) const {
        const char o = code[open], c = o == '(' ? ')' : '}';
        int depth = 0;
        for (size_t i = open; i < n;) {
            if (size_t j = skip(i); j != i) {
                i = j;
                continue;
            }
            if (code[i] == o) ++depth;
            else if (code[i] == c && --depth == 0) return i;
            ++i;
        }
        return std::string::npos;
    }
    bool word_char(size_t i) const { return i < n && (std::isalnum((unsigned char)code[i]) || code[i] == '_'); }
};

// Whether the CPU runs kernel `k`'s threads as a loop inside its body
// (GPY_SERIAL_BEGIN/END): no barriers, and nothing it calls reads the
// thread's indices (the loop keeps them in locals).
bool loops(const RawKernelInfo& k) { return !k.barriers && !k.callee_state && k.body_open >= 0 && k.body_close > k.body_open; }

// The launchable kernels (name expressions', extern "C" ones): the module's
// entry points, the same whichever kernel asks (get_global shares the module).
std::vector<const RawKernelInfo*> launchable(const RawModuleInfo& info) {
    std::vector<const RawKernelInfo*> out;
    for (const RawKernelInfo& k : info.kernels)
        if (k.name_expression || k.extern_c) out.push_back(&k);
    return out;
}

// The bodies run as loops: each launchable kernel's that loops(), unless a
// kernel sharing that text (another instance of a template) cannot.
std::set<long> looping_bodies(const RawModuleInfo& info) {
    std::set<long> yes, no;
    for (const RawKernelInfo* k : launchable(info)) (loops(*k) ? yes : no).insert(k->body_open);
    for (long b : no) yes.erase(b);
    return yes;
}

// The code with each looping body wrapped in GPY_SERIAL_BEGIN ...
// GPY_SERIAL_END (runtime/raw_cpu_prelude.h), on the same lines (errors
// keep their line numbers).
std::string wrap_kernel_bodies(const std::string& code, const RawModuleInfo& info) {
    std::vector<std::pair<long, long>> bodies;
    for (const RawKernelInfo* k : launchable(info))
        if (looping_bodies(info).count(k->body_open)) bodies.emplace_back(k->body_open, k->body_close);
    std::sort(bodies.begin(), bodies.end());
    bodies.erase(std::unique(bodies.begin(), bodies.end()), bodies.end());
    std::string out;
    size_t copied = 0;
    for (auto [open, close] : bodies) {
        out += code.substr(copied, size_t(open) + 1 - copied) + " GPY_SERIAL_BEGIN ";
        out += code.substr(size_t(open) + 1, size_t(close - open) - 1) + " GPY_SERIAL_END ";
        copied = size_t(close);
    }
    return out + code.substr(copied);
}

// One parameter's text with a pointer made ::gpy_emu::Checked<pointee>
// (qualifiers of the pointer itself dropped); `name` gets its name. Other
// parameters come back as they are, with `name` empty.
std::string checked_param(const std::string& param, std::string& name) {
    name.clear();
    int depth = 0;
    size_t star = std::string::npos;
    for (size_t i = 0; i < param.size(); ++i) {
        if (param[i] == '<' || param[i] == '(' || param[i] == '[') ++depth;
        else if (param[i] == '>' || param[i] == ')' || param[i] == ']') --depth;
        else if (param[i] == '*' && depth == 0) star = i;
    }
    if (star == std::string::npos) return param;
    // After the last '*': qualifiers of the pointer, then the name.
    static const std::regex tail(R"(^((?:\s*(?:const|volatile|__restrict__|__restrict|restrict)\b)*)\s*([A-Za-z_]\w*)?\s*$)");
    std::smatch m;
    const std::string after = param.substr(star + 1);
    if (!std::regex_match(after, m, tail)) return param;
    name = m[2].str();
    static const std::regex restrict_words(R"(\b(?:__restrict__|__restrict|restrict)\b)");
    std::string pointee = std::regex_replace(param.substr(0, star), restrict_words, "");
    return " ::gpy_emu::Checked<" + pointee + "> " + name;
}

// A local pointer's declaration up to its name: the pointee type (group 1),
// '*', the pointer's own qualifiers.
#define GPY_POINTER_DECLARATOR                                                                                        \
    R"(((?:(?:const|volatile|unsigned|signed|long|short)\s+)*[A-Za-z_]\w*(?:\s*<[^;<>]*>)?(?:\s+const)?)\s*\*\s*)" \
    R"((?:(?:const|__restrict__|__restrict|restrict)\s+)*)"

// A pointer declaration with an initialiser: TYPE* [qualifiers] NAME = INIT;
// (group 1 the pointee type, 2 the name, 3 the initialiser).
const std::regex& pointer_declaration() {
    static const std::regex r(R"((?:^|[;{}(])\s*)" GPY_POINTER_DECLARATOR R"(([A-Za-z_]\w*)\s*=(?!=)\s*([^;]*);)");
    return r;
}

// Adds to `names` the local pointers of `body` initialised from one of
// them (`const float* row = x + blockIdx.x * w;`), to a fixed point.
void derived_pointers(const std::string& body, std::vector<std::string>& names) {
    static const std::regex word(R"([A-Za-z_]\w*)");
    for (bool grew = true; grew;) {
        grew = false;
        for (auto it = std::sregex_iterator(body.begin(), body.end(), pointer_declaration()); it != std::sregex_iterator(); ++it) {
            const std::string name = (*it)[2].str(), init = (*it)[3].str();
            if (std::find(names.begin(), names.end(), name) != names.end()) continue;
            for (auto w = std::sregex_iterator(init.begin(), init.end(), word); w != std::sregex_iterator(); ++w)
                if (std::find(names.begin(), names.end(), w->str()) != names.end()) {
                    names.push_back(name);
                    grew = true;
                    break;
                }
        }
    }
}

// `body` with each use of one of `names` made GPY_AT(name); a use after
// '.', '->' or '::' is another name's member, left alone.
std::string checked_uses(const std::string& body, const std::vector<std::string>& names) {
    CodeScan sc(body);
    std::string out;
    for (size_t i = 0; i < sc.n;) {
        if (size_t j = sc.skip(i); j != i) {
            out += body.substr(i, j - i);
            i = j;
            continue;
        }
        if (!sc.word_char(i) || (i > 0 && sc.word_char(i - 1))) {
            out += body[i++];
            continue;
        }
        size_t e = i;
        while (sc.word_char(e)) ++e;
        const std::string word = body.substr(i, e - i);
        const size_t before = out.find_last_not_of(" \t\n");
        const bool member = before != std::string::npos &&
                            (out[before] == '.' || (before > 0 && (out.compare(before - 1, 2, "->") == 0 || out.compare(before - 1, 2, "::") == 0)));
        out += !member && std::find(names.begin(), names.end(), word) != names.end() ? "GPY_AT(" + word + ")" : word;
        i = e;
    }
    return out;
}

// The derived pointers' declarations, after checked_uses: `TYPE*
// GPY_AT(row) = ...` becomes `::gpy_emu::Checked<TYPE> row = ...`.
std::string checked_declarations(const std::string& body) {
    static const std::regex decl(GPY_POINTER_DECLARATOR R"(GPY_AT\((\w+)\)(\s*=)(?!=))");
    return std::regex_replace(body, decl, " ::gpy_emu::Checked<$1> $2$3");
}

// gpy --check-kernels: every __global__ function's pointer parameters
// declared ::gpy_emu::Checked<T>, and each use of one in its body made
// GPY_AT(name) (runtime/raw_cpu_prelude.h), on the same lines; so are the
// local pointers initialised from them.
std::string check_kernel_pointers(const std::string& code, const RawModuleInfo& info) {
    std::vector<std::pair<long, long>> lists;  // (each text once: a template's instances share it)
    for (const RawKernelInfo& k : info.kernels)
        if (k.params_open >= 0 && k.params_close > k.params_open) lists.emplace_back(k.params_open, k.params_close);
    std::sort(lists.begin(), lists.end());
    lists.erase(std::unique(lists.begin(), lists.end()), lists.end());
    std::string out;
    size_t copied = 0;
    for (auto [open, close] : lists) {
        const RawKernelInfo& k = *std::find_if(info.kernels.begin(), info.kernels.end(), [&](const RawKernelInfo& x) { return x.params_open == open; });
        // The parameter list, split at its top-level commas.
        std::vector<std::string> names;
        std::string params;
        int depth = 0;
        size_t from = size_t(open) + 1;
        for (size_t i = size_t(open) + 1; i <= size_t(close); ++i) {
            const char c = code[i];
            if (c == '<' || c == '(' || c == '[') ++depth;
            else if ((c == '>' || c == ')' || c == ']') && i < size_t(close)) --depth;
            if ((c == ',' && depth == 0) || i == size_t(close)) {
                std::string name;
                params += (params.empty() ? "" : ",") + checked_param(code.substr(from, i - from), name);
                if (!name.empty()) names.push_back(name);
                from = i + 1;
            }
        }
        out += code.substr(copied, size_t(open) + 1 - copied) + params;
        copied = size_t(close);
        if (k.body_open < 0 || k.body_close <= k.body_open || names.empty()) continue;
        out += code.substr(copied, size_t(k.body_open) + 1 - copied);
        const std::string body = code.substr(size_t(k.body_open) + 1, size_t(k.body_close - k.body_open) - 1);
        derived_pointers(body, names);
        out += checked_declarations(checked_uses(body, names));
        copied = size_t(k.body_close);
    }
    return out + code.substr(copied);
}

// The text before the user's: `mode` (GPY_CHECKED, GPY_ANALYSIS), the
// prelude, and NVRTC's -D options, which the source may test.
std::string prelude_text(const RawSource& s, const char* mode) {
    std::string src = mode;
    src += kRawCpuPrelude;
    src += kUserMathPrelude;
    for (size_t i = 0; i < s.options.size(); ++i) {
        std::string d = s.options[i];
        if (d == "-D" && i + 1 < s.options.size()) d = "-D" + s.options[++i];
        else if (d.rfind("--define-macro=", 0) == 0) d = "-D" + d.substr(15);
        if (d.rfind("-D", 0) != 0 || d.size() < 3) continue;
        d = d.substr(2);
        const size_t eq = d.find('=');
        src += "#define " + (eq == std::string::npos ? d + " 1" : d.substr(0, eq) + " " + d.substr(eq + 1)) + "\n";
    }
    return src + "#line 1 \"" + s.file + "\"\n";
}

// The user's code as the CPU compiles it (bundled headers expanded, dynamic
// shared memory and one-line extern "C" variables rewritten) and Clang's
// analysis of it.
struct Analysed {
    std::string code;
    std::shared_ptr<const RawModuleInfo> info;
};

Analysed analyse(const RawSource& s, const std::string& cache_dir) {
    Analysed a;
    a.code = define_extern_c_globals(rewrite_dynamic_shared(expand_bundled_headers(s.code, s.file)));
    std::string src = prelude_text(s, "#define GPY_ANALYSIS 1\n");
    const size_t begin = src.size();
    src += a.code;
    const size_t end = src.size();
    // The name expressions' kernels: instantiated here, found by these names.
    src += "\n#line 1 \"<gpy name expressions>\"\n";
    for (size_t k = 0; k < s.name_expressions.size(); ++k)
        src += "static auto gpy_ne_" + std::to_string(k) + " = &" + s.name_expressions[k] + ";\n";
    static std::mutex mu;
    static std::map<std::string, std::shared_ptr<const RawModuleInfo>> memo;  // (the JIT caches the text; this the parse of it)
    std::string text;
    try {
        text = CpuJit::instance().analyse(src, begin, end, cache_dir);
    } catch (const JitError& e) {
        throw RawCompileError(e.what(), e.compiler_log);
    }
    std::lock_guard<std::mutex> lock(mu);
    std::shared_ptr<const RawModuleInfo>& info = memo[text + '\0' + std::to_string(s.name_expressions.size())];
    if (!info) info = std::make_shared<const RawModuleInfo>(parse_raw_analysis(text, s.name_expressions));
    a.info = info;
    return a;
}

std::string module_source(const RawSource& s, const Analysed& a, bool loop, bool checked) {
    std::string src = prelude_text(s, checked ? "#define GPY_CHECKED 1\n" : "");
    src += loop ? wrap_kernel_bodies(a.code, *a.info) : checked ? check_kernel_pointers(a.code, *a.info) : a.code;
    src += "\n#line 1 \"<gpy kernel entry points>\"\n";
    // RawModule.get_global: each module variable's address and size.
    const std::vector<std::string>& globals = a.info->globals;
    for (size_t g = 0; g < globals.size(); ++g) {
        const std::string G = std::to_string(g);
        src += "extern \"C\" void* gpy_raw_gaddr_" + G + "() { return (void*)&" + globals[g] + "; }\n";
        src += "extern \"C\" unsigned long gpy_raw_gsize_" + G + "() { return sizeof(" + globals[g] + "); }\n";
    }
    const std::vector<const RawKernelInfo*> kernels = launchable(*a.info);
    const std::set<long> looping = loop ? looping_bodies(*a.info) : std::set<long>();
    for (size_t k = 0; k < kernels.size(); ++k) {
        const std::string K = std::to_string(k), E = kernels[k]->name;
        src += "static void gpy_body_" + K + "(void** gpy_args) { ::gpy_emu::call(&" + E + ", gpy_args); }\n";
        src += "extern \"C\" int gpy_raw_run_" + K +
               "(void** gpy_a, const unsigned* gpy_d, unsigned long gpy_b0, unsigned long gpy_b1, char* gpy_s, int gpy_f, "
               "const volatile int* gpy_stop) { return ::gpy_emu::run<gpy_body_" + K + ", " +
               (looping.count(kernels[k]->body_open) ? "true" : "false") + ">(gpy_a, gpy_d, gpy_b0, gpy_b1, gpy_s, gpy_f, gpy_stop); }\n";
    }
    return src;
}

// Fiber stacks, kFiberStack-aligned (the prelude finds a thread's state at
// its stack's base): one region per worker thread, grown on demand, mapped
// (reserved, not committed). Above each thread's state page a guard page: a
// stack that overflows faults there instead of overwriting the state.
struct FiberStacks {
    char* base = nullptr;
    size_t count = 0;
    char* get(size_t n) {
        if (n <= count) return base;
        release();
        const size_t bytes = n * kFiberStack;
        void* m = ::mmap(nullptr, bytes + kFiberStack, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (m == MAP_FAILED) throw std::bad_alloc();
        // Trim to a kFiberStack-aligned run of n stacks.
        char* raw = static_cast<char*>(m);
        char* aligned = reinterpret_cast<char*>((reinterpret_cast<uintptr_t>(raw) + kFiberStack - 1) & ~(kFiberStack - 1));
        if (aligned > raw) ::munmap(raw, size_t(aligned - raw));
        if (raw + kFiberStack > aligned) ::munmap(aligned + bytes, size_t(raw + kFiberStack - aligned));
        const size_t page = size_t(::sysconf(_SC_PAGESIZE));
        for (size_t i = 0; i < n; ++i) ::mprotect(aligned + i * kFiberStack + page, page, PROT_NONE);
        base = aligned;
        count = n;
        return base;
    }
    void release() {
        if (base) ::munmap(base, count * kFiberStack);
        base = nullptr;
        count = 0;
    }
    ~FiberStacks() { release(); }
};

// Under GPY_SHADOW_NVRTC (CI), NVRTC compiles the module too, once per
// process: a kernel the emulation accepts but a GPU would reject fails here.
void shadow_compile(const RawSource& s) {
    if (!shadow_nvrtc_enabled() || !nvrtc::available()) return;
    static std::mutex mu;
    static std::set<std::string> done;
    std::string id = s.code + '\0';
    for (const std::string& o : s.options) id += o + '\1';
    for (const std::string& n : s.name_expressions) id += n + '\2';
    {
        std::lock_guard<std::mutex> lock(mu);
        if (!done.insert(id).second) return;
    }
    for (const char* arch : kShadowArchs) {
        if (!shadow_arch_wanted(arch)) continue;
        try {
            nvrtc::compile_user(expand_bundled_headers(s.code, s.file), s.file, arch, s.options, s.name_expressions);
        } catch (const nvrtc::CompileError& e) {
            throw RawCompileError(std::string("NVRTC (") + arch + ") rejects it: " + e.what(), e.log);
        }
    }
}

// What --check-kernels reports: "x[1000] is outside the 1000 elements
// (4000 bytes) of argument 1 (thread (232, 0, 0) of block (3, 0, 0),
// kernel.cu:5)"; through a pointer derived from an argument, the element of
// the argument too; for a strided view, the bytes it spans.
std::string out_of_bounds_message(const Violation& v, std::span<const RawBounds> bounds) {
    const std::string ptr = v.name && *v.name ? v.name : "a pointer";
    const long elem = v.size ? long(v.size) : 1;
    auto index = [&](long bytes) { return bytes % elem == 0 ? std::to_string(bytes / elem) : "(byte " + std::to_string(bytes) + ")"; };
    auto dims = [](const unsigned* d) { return "(" + std::to_string(d[0]) + ", " + std::to_string(d[1]) + ", " + std::to_string(d[2]) + ")"; };
    size_t arg = bounds.size();
    for (size_t i = 0; i < bounds.size(); ++i)
        if (bounds[i].lo == v.lo && bounds[i].hi) arg = i;
    const std::string which = arg < bounds.size() ? "argument " + std::to_string(arg + 1) : "its array";
    std::string msg = ptr + "[" + index(v.rel) + "]";
    if (v.rel != v.offset) msg += " (element " + index(v.offset) + " of " + which + ")";
    msg += " is outside ";
    if (arg == bounds.size()) msg += "its array";
    else if (bounds[arg].contiguous)
        msg += "the " + std::to_string(bounds[arg].elements) + " elements (" + std::to_string(v.extent) + " bytes) of " + which;
    else
        msg += "the " + std::to_string(v.extent) + " bytes spanned by " + which + ", a strided array of " + std::to_string(bounds[arg].elements) + " elements";
    return msg + " (thread " + dims(v.tid) + " of block " + dims(v.bid) + ", " + (v.file ? v.file : "kernel") + ":" + std::to_string(v.line) + ")";
}

}  // namespace

std::string raw_param_text(const RawParam& p) {
    std::string t;
    switch (p.kind) {
    case 'f': t = p.size == 4 ? "float" : p.size == 8 ? "double" : "float" + std::to_string(p.size * 8); break;
    case 'b': t = "bool"; break;
    case 'i': t = p.size == 1 ? "char" : p.size == 2 ? "short" : p.size == 4 ? "int" : "long long"; break;
    case 'u': t = p.size == 1 ? "unsigned char" : p.size == 2 ? "unsigned short" : p.size == 4 ? "unsigned int" : "unsigned long long"; break;
    case 'c': t = p.size == 8 ? "complex<float>" : "complex<double>"; break;
    default: t = p.size == 0 ? "void" : "a " + std::to_string(p.size) + "-byte struct"; break;
    }
    if (!p.pointer) return t;
    return (p.const_pointee ? "const " : "") + t + "*";
}

std::shared_ptr<const RawModuleInfo> raw_module_info(const RawSource& s, const std::string& cache_dir) { return analyse(s, cache_dir).info; }

std::shared_ptr<RawFunction> cpu_raw_function(const RawSource& s, const std::string& expr, const std::string& cache_dir) {
#if !defined(__x86_64__)
    throw RawCompileError("raw CUDA kernels run on the CPU only on x86-64", "");
#endif
    const Analysed a = analyse(s, cache_dir);
    // A GPU finds a kernel by its symbol: an extern "C" __global__ name, or a
    // name expression's lowered name. Anything else is the driver's NOT_FOUND
    // here too (a C++ kernel the CPU could call, a __device__ function).
    const RawKernelInfo* info = a.info->find(expr);
    if (!info)
        throw RawLaunchError("CUDA_ERROR_NOT_FOUND: named symbol not found (no extern \"C\" __global__ kernel '" + expr +
                             "' in the module; C++ kernels and templates need name_expressions)");
    const std::vector<const RawKernelInfo*> kernels = launchable(*a.info);
    const size_t k = size_t(std::find(kernels.begin(), kernels.end(), info) - kernels.begin());
    auto f = std::make_shared<CpuRawFunction>();
    auto load = [&](bool loop, bool checked) {
        const std::string source = module_source(s, a, loop, checked);
        f->run = reinterpret_cast<RunFn>(CpuJit::instance().lookup(source, "gpy_raw_run_" + std::to_string(k), cache_dir));
    };
    try {
        // Kernels without barriers loop over their threads inside
        // (vectorisable); if that does not compile (a lambda without captures
        // reading threadIdx, say), as written, a call a thread.
        // --check-kernels: checked pointers, a call a thread (a violation
        // names threadIdx); as written when the checks do not compile (a
        // reinterpret_cast of a parameter, say), with a note saying so.
        bool loaded = false;
        if (s.checked) {
            try {
                load(false, true);
                loaded = f->checked = true;
            } catch (const JitError& e) {
                std::string first = e.compiler_log.substr(0, e.compiler_log.find('\n'));
                f->check_note = "its pointer parameters are used in a way the checks cannot follow" +
                                (first.empty() ? std::string() : " (" + first + ")") + ": it runs unchecked";
            }
        }
        if (!loaded && !looping_bodies(*a.info).empty()) {
            try {
                load(true, false);
                loaded = true;
            } catch (const JitError&) {
            }
        }
        if (!loaded) load(false, false);
    } catch (const JitError& e) {
        throw RawCompileError(e.what(), e.compiler_log);
    }
    shadow_compile(s);
    f->params = info->params;
    f->fibers = info->barriers;
    // (Checked launches run their blocks in order on one thread: the
    // violation reported is the first in block order, the same every run.)
    f->serial = f->fibers || f->checked || info->shared;
    f->attributes = {{"max_threads_per_block", 1024}, {"shared_size_bytes", 0},  {"const_size_bytes", 0},
                     {"local_size_bytes", 0},         {"num_regs", 0},           {"ptx_version", 0},
                     {"binary_version", 0},           {"cache_mode_ca", 0},      {"max_dynamic_shared_size_bytes", int(kDynamicShared)},
                     {"preferred_shared_memory_carveout", -1}};
    return f;
}

std::pair<void*, size_t> cpu_raw_global(const RawSource& s, const std::string& name, const std::string& cache_dir) {
    const Analysed a = analyse(s, cache_dir);
    const std::vector<std::string>& globals = a.info->globals;
    const size_t g = size_t(std::find(globals.begin(), globals.end(), name) - globals.begin());
    if (g == globals.size())
        throw RawLaunchError("CUDA_ERROR_NOT_FOUND: named symbol not found (no __device__ or __constant__ variable '" + name +
                             "' in the module)");
    // The module the kernels run in: the variant cpu_raw_function loads (the
    // JIT caches modules by source, so this finds the same one), kernels or not.
    auto find = [&](bool loop, bool checked) {
        const std::string source = module_source(s, a, loop, checked);
        using AddrFn = void* (*)();
        using SizeFn = unsigned long (*)();
        auto addr = reinterpret_cast<AddrFn>(CpuJit::instance().lookup(source, "gpy_raw_gaddr_" + std::to_string(g), cache_dir));
        auto size = reinterpret_cast<SizeFn>(CpuJit::instance().lookup(source, "gpy_raw_gsize_" + std::to_string(g), cache_dir));
        return std::pair<void*, size_t>(addr(), size_t(size()));
    };
    try {
        if (s.checked) {
            try {
                return find(false, true);
            } catch (const JitError&) {
            }
        }
        if (!looping_bodies(*a.info).empty()) {
            try {
                return find(true, false);
            } catch (const JitError&) {
            }
        }
        return find(false, false);
    } catch (const JitError& e) {
        throw RawCompileError(e.what(), e.compiler_log);
    }
}

void cpu_raw_launch(RawFunction& fn, RawDims grid, RawDims block, size_t shared_bytes, std::span<void* const> args,
                    std::span<const RawBounds> bounds) {
    auto& f = static_cast<CpuRawFunction&>(fn);
    if (f.params && f.params->size() != args.size())
        throw RawLaunchError("the kernel takes " + std::to_string(f.params->size()) + " arguments, " + std::to_string(args.size()) + " given");
    if (block.count() > 1024 || block.x > 1024 || block.y > 1024 || block.z > 64)
        throw RawLaunchError("invalid block (" + std::to_string(block.x) + ", " + std::to_string(block.y) + ", " + std::to_string(block.z) +
                             "): at most 1024 threads, (1024, 1024, 64) in each dimension");
    if (grid.x >= (1u << 31) || grid.y > 65535 || grid.z > 65535)
        throw RawLaunchError("invalid grid: at most (2**31 - 1, 65535, 65535) blocks");
    if (grid.count() == 0 || block.count() == 0) throw RawLaunchError("invalid launch: a grid or block dimension is 0");
    if (shared_bytes > kDynamicShared)
        throw RawLaunchError("too much dynamic shared memory: " + std::to_string(shared_bytes) + " bytes (at most " +
                             std::to_string(kDynamicShared) + ")");
    const unsigned dims[6] = {grid.x, grid.y, grid.z, block.x, block.y, block.z};
    void** a = const_cast<void**>(args.data());
    // --check-kernels: each pointer argument with its array's bytes (all of
    // memory where the caller gave none), and a record of the first access
    // outside them.
    Violation violation{};
    std::vector<CheckedArg> checked;
    std::vector<void*> checked_args;
    if (f.checked && f.params) {
        checked.resize(args.size());
        checked_args.assign(args.begin(), args.end());
        for (size_t i = 0; i < args.size(); ++i) {
            if (!(*f.params)[i].pointer) continue;
            const RawBounds b = i < bounds.size() ? bounds[i] : RawBounds{nullptr, reinterpret_cast<const char*>(UINTPTR_MAX)};
            checked[i] = CheckedArg{*static_cast<void**>(args[i]), b.lo, b.hi, &violation, 0, "", ""};
            checked_args[i] = &checked[i];
        }
        a = checked_args.data();
    }
    const uint64_t blocks = grid.count();
    // Ctrl-C: the calling interpreter's flag, polled between blocks (a
    // thread that never returns still holds its block).
    static const volatile int never = 0;
    const volatile int* stop = t_interrupt_flag ? t_interrupt_flag : &never;
    if (f.serial) {
        // Its __shared__ statics and dynamic shared buffer live in the module,
        // which interpreters on other threads share: one such launch at a time.
        static std::mutex serial_mu;
        std::lock_guard<std::mutex> lock(serial_mu);
        static thread_local FiberStacks stacks;
        char* s = stacks.get(f.fibers ? size_t(block.count()) : 1);
        const int rc = f.run(a, dims, 0, blocks, s, f.fibers ? 1 : 0, stop);
        if (rc == 1)
            throw RawLaunchError("the kernel deadlocked: a barrier (__syncthreads, a warp shuffle or vote) that some threads of a block "
                                 "never reach");
        if (rc == 2) throw Interrupted();
        if (violation.hit) throw RawOutOfBounds(out_of_bounds_message(violation, bounds));
        return;
    }
    // Blocks in parallel, each worker on its own fiber stack; chunks of
    // about 16k threads amortise the hand-out.
    const int64_t grain = std::max<int64_t>(1, int64_t(16384 / block.count()));
    parallel_for(int64_t(blocks), grain, [&](int64_t b0, int64_t b1) {
        static thread_local FiberStacks stacks;
        f.run(a, dims, (unsigned long)b0, (unsigned long)b1, stacks.get(1), 0, stop);
    });
    if (*stop) throw Interrupted();
}

}  // namespace gpy
