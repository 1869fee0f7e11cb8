// A `kernel NAME(params):` block's value (docs/kernels.md): the CUDA C++
// translation unit it spells, with #line directives so that NVRTC's and
// Clang's diagnostics name the .gpy file's own lines and columns, handed to
// the array module's `_kernel_block` (a RawKernel, compiled now). The
// language layer knows the module only by name. A compile error gets the
// block's line and column as its innermost traceback entry, so the caret
// points into the CUDA body.
#include <cctype>

#include "lang/ast.h"
#include "lang/interp.h"

namespace gpy {

namespace {

std::string quoted(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + "\"";
}

// The first "FILE:LINE:COL: error" (Clang) or "FILE(LINE): error" (NVRTC)
// of `log` naming `file`: its byte offset in the file and its message.
bool first_error(const SourceFile& file, const std::string& log, uint32_t& offset, std::string& message) {
    for (size_t at = log.find(file.name); at != std::string::npos; at = log.find(file.name, at + 1)) {
        size_t p = at + file.name.size();
        auto number = [&](size_t& q) {
            long v = 0;
            size_t start = q;
            while (q < log.size() && std::isdigit(uint8_t(log[q]))) v = v * 10 + (log[q++] - '0');
            return q > start ? v : -1L;
        };
        long line = -1, col = 1;
        if (p < log.size() && log[p] == ':') {
            ++p;
            line = number(p);
            if (p < log.size() && log[p] == ':') {
                ++p;
                col = number(p);
            }
        } else if (p < log.size() && log[p] == '(') {
            ++p;
            line = number(p);
            if (p < log.size() && log[p] == ')') ++p;
            // NVRTC echoes the line indented by two spaces, then a caret line.
            const size_t echo = log.find('\n', p);
            const size_t caret_line = echo == std::string::npos ? echo : log.find('\n', echo + 1);
            if (caret_line != std::string::npos) {
                const size_t caret = log.find_first_not_of(' ', caret_line + 1);
                if (caret != std::string::npos && log[caret] == '^' && caret - caret_line - 1 >= 2) col = long(caret - caret_line - 1 - 2 + 1);
            }
        }
        const size_t err = log.find("error", p);
        if (line < 1 || size_t(line) > file.line_starts.size() || col < 1 || err == std::string::npos || err > p + 3) continue;
        // The column counts characters; the body is ASCII in practice, bytes otherwise.
        const uint32_t begin = file.line_starts[size_t(line - 1)];
        const std::string_view text = file.line_text(int(line));
        offset = begin + uint32_t(std::min<size_t>(size_t(col - 1), text.size()));
        size_t msg = log.find(':', err);
        size_t end = log.find('\n', err);
        message = msg == std::string::npos ? "" : log.substr(msg + 1, end == std::string::npos ? std::string::npos : end - msg - 1);
        while (!message.empty() && message.front() == ' ') message.erase(message.begin());
        return true;
    }
    return false;
}

}  // namespace

Value KernelExpr::eval(Frame& f) const {
    Interp& in = f.in;
    const SourceFile& file = *span.file;
    const auto [pline, pcol] = file.line_col(params_offset);
    const auto [bline, bcol] = file.line_col(body_offset);
    (void)bcol;
    const std::string at = quoted(file.name);
    std::string source = "extern \"C\" __global__ void " + name + "(\n#line " + std::to_string(pline) + " " + at + "\n" +
                         std::string(size_t(pcol - 1), ' ') + params + ") {\n#line " + std::to_string(bline) + " " + at + "\n" + body +
                         "\n}\n";
    ModuleObj* np = in.import_module("numpy");
    Value fn = get_attr(in, Value::object(np), "_kernel_block");
    std::vector<Value> args = {make_str(name), make_str(std::move(source)), make_str(file.name)};
    CallArgs call{args.data(), args.size()};
    try {
        return in.call(fn, call);
    } catch (GpyError& e) {
        ExceptionObj* x = e.obj();
        uint32_t offset = 0;
        std::string message;
        const std::string log = x->message();
        if (x->type->name == "CompileException" && first_error(file, log, offset, message)) {
            // The compiler's first error, at its place in the block, is the
            // message; the whole log follows it.
            x->traceback.insert(x->traceback.begin(), TraceEntry{Span{&file, offset, offset + 1}, "<kernel " + name + ">"});
            // One error: its message is the whole story (the caret shows
            // the line); several: the compiler's log follows.
            size_t errors = 0;
            for (size_t p = log.find("error"); p != std::string::npos; p = log.find("error", p + 1))
                errors += p > 0 && (log[p - 1] == ' ' || log[p - 1] == ':') && log.compare(p, 7, "error: ") == 0;
            x->args = make_tuple({make_str("kernel '" + name + "': " + message + (errors > 1 ? "\n" + log : std::string()))});
        }
        throw;
    }
}

}  // namespace gpy
