// .npz archives: np.savez / np.savez_compressed write a zip of .npy members;
// np.load of a zip returns an NpzFile that parses a member when it is indexed.
//
// Members are stored uncompressed (zip method 0): savez_compressed writes the
// same archive as savez (NumPy reads both), and loading a deflated member
// (what NumPy's savez_compressed writes) raises NotImplementedError.
#include <cstring>
#include <map>
#include <mutex>

#include "lang/format.h"
#include "numpy/array.h"
#include "numpy/io_files.h"
#include "numpy/module_parts.h"
#include "numpy/np_args.h"
#include "numpy/npy_format.h"

namespace gpy {

namespace {

uint32_t crc32(const std::string& data) {
    static uint32_t table[256];
    static std::once_flag once;
    std::call_once(once, [] {
        for (uint32_t n = 0; n < 256; ++n) {
            uint32_t c = n;
            for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
            table[n] = c;
        }
    });
    uint32_t c = 0xffffffffu;
    for (unsigned char b : data) c = table[(c ^ b) & 0xff] ^ (c >> 8);
    return c ^ 0xffffffffu;
}

void put16(std::string& out, uint32_t v) {
    out += char(v & 0xff);
    out += char((v >> 8) & 0xff);
}
void put32(std::string& out, uint32_t v) {
    put16(out, v & 0xffff);
    put16(out, v >> 16);
}

// A zip archive of stored members (no zip64: members and archive < 4 GiB).
std::string zip_stored(const std::vector<std::pair<std::string, std::string>>& members) {
    std::string out, central;
    const uint32_t dos_date = (0 << 9) | (1 << 5) | 1;  // 1980-01-01: archives do not depend on the clock
    for (auto& [name, data] : members) {
        if (data.size() >= 0xffffffffu || out.size() >= 0xffffffffu)
            raise(types::ValueError, "gpy writes .npz archives below 4 GiB only");
        uint32_t crc = crc32(data), offset = uint32_t(out.size());
        auto common = [&](std::string& h) {
            put16(h, 20);  // version needed to extract: 2.0
            put16(h, 0);   // flags
            put16(h, 0);   // method: stored
            put16(h, 0);   // time
            put16(h, dos_date);
            put32(h, crc);
            put32(h, uint32_t(data.size()));
            put32(h, uint32_t(data.size()));
            put16(h, uint32_t(name.size()));
            put16(h, 0);  // extra length
        };
        put32(out, 0x04034b50);
        common(out);
        out += name;
        out += data;
        put32(central, 0x02014b50);
        put16(central, 20);  // made by: version 2.0, MS-DOS attributes
        common(central);
        put16(central, 0);  // comment length
        put16(central, 0);  // disk
        put16(central, 0);  // internal attributes
        put32(central, 0600u << 16);  // external attributes: rw------- (as Python's zipfile)
        put32(central, offset);
        central += name;
    }
    uint32_t cd_offset = uint32_t(out.size());
    out += central;
    put32(out, 0x06054b50);
    put16(out, 0);
    put16(out, 0);
    put16(out, uint32_t(members.size()));
    put16(out, uint32_t(members.size()));
    put32(out, uint32_t(central.size()));
    put32(out, cd_offset);
    put16(out, 0);
    return out;
}

// ---- reading ----

[[noreturn]] void bad_zip() { raise(types::ValueError, "File is not a zip file"); }

uint64_t get(const std::string& d, size_t pos, int bytes) {
    if (pos > d.size() || d.size() - pos < size_t(bytes)) bad_zip();
    uint64_t v = 0;
    for (int k = 0; k < bytes; ++k) v |= uint64_t(uint8_t(d[pos + size_t(k)])) << (8 * k);
    return v;
}

struct Member {
    uint16_t method;
    uint64_t size, offset;  // compressed size; offset of the local header
};

// Reads the central directory (with zip64 records where the 32-bit fields
// overflow, as NumPy's force_zip64 writes) into name -> member, in order.
std::vector<std::pair<std::string, Member>> zip_members(const std::string& d) {
    if (d.size() < 22) bad_zip();
    size_t eocd = std::string::npos;
    size_t lowest = d.size() > 22 + 0xffff ? d.size() - 22 - 0xffff : 0;
    for (size_t p = d.size() - 22 + 1; p-- > lowest;)
        if (get(d, p, 4) == 0x06054b50) { eocd = p; break; }
    if (eocd == std::string::npos) bad_zip();
    uint64_t count = get(d, eocd + 10, 2), cd_offset = get(d, eocd + 16, 4);
    if (eocd >= 20 && get(d, eocd - 20, 4) == 0x07064b50) {  // zip64 end of central directory locator
        uint64_t rec = get(d, eocd - 12, 8);
        if (get(d, rec, 4) != 0x06064b50) bad_zip();
        count = get(d, rec + 32, 8);
        cd_offset = get(d, rec + 48, 8);
    }
    std::vector<std::pair<std::string, Member>> out;
    uint64_t p = cd_offset;
    for (uint64_t k = 0; k < count; ++k) {
        if (get(d, p, 4) != 0x02014b50) bad_zip();
        Member m;
        m.method = uint16_t(get(d, p + 10, 2));
        m.size = get(d, p + 20, 4);
        uint64_t usize = get(d, p + 24, 4);
        size_t name_len = get(d, p + 28, 2), extra_len = get(d, p + 30, 2), comment_len = get(d, p + 32, 2);
        m.offset = get(d, p + 42, 4);
        if (p + 46 > d.size() || d.size() - (p + 46) < name_len) bad_zip();
        std::string name = d.substr(p + 46, name_len);
        // zip64 extra field: the 8-byte values of the fields saturated above, in order.
        for (uint64_t e = p + 46 + name_len; e + 4 <= p + 46 + name_len + extra_len;) {
            uint64_t id = get(d, e, 2), len = get(d, e + 2, 2);
            if (id == 1) {
                uint64_t f = e + 4;
                if (usize == 0xffffffffu) { get(d, f, 8); f += 8; }
                if (m.size == 0xffffffffu) { m.size = get(d, f, 8); f += 8; }
                if (m.offset == 0xffffffffu) m.offset = get(d, f, 8);
            }
            e += 4 + len;
        }
        out.emplace_back(std::move(name), m);
        p += 46 + name_len + extra_len + comment_len;
    }
    return out;
}

std::string member_data(const std::string& d, const Member& m) {
    if (get(d, m.offset, 4) != 0x04034b50) bad_zip();
    uint64_t start = m.offset + 30 + get(d, m.offset + 26, 2) + get(d, m.offset + 28, 2);
    if (start > d.size() || d.size() - start < m.size) bad_zip();
    if (m.method != 0)
        raise(types::NotImplementedError, "gpy reads only uncompressed .npz archives (np.savez), not compressed ones "
                                          "(np.savez_compressed)");
    return d.substr(start, m.size);
}

// ---- NpzFile ----

TypeObject* npz_type();

struct NpzObj : Object {
    std::string path, data;
    NpyLoadOptions opt;
    std::vector<std::pair<std::string, Member>> members;
    NpzObj() : Object(npz_type()) {}
    // NumPy's NpzFile.files: member names with ".npy" dropped.
    std::vector<std::string> files() const {
        std::vector<std::string> out;
        for (auto& [name, m] : members) {
            bool npy = name.size() >= 4 && name.compare(name.size() - 4, 4, ".npy") == 0;
            out.push_back(npy ? name.substr(0, name.size() - 4) : name);
        }
        return out;
    }
};

NpzObj* self_npz(CallArgs& a, const char* method) {
    if (a.npos < 1 || !a.pos[0].is_obj() || a.pos[0].o->type != npz_type())
        raise(types::TypeError, std::string("NpzFile.") + method + "() needs an NpzFile");
    return static_cast<NpzObj*>(a.pos[0].o);
}

Value npz_getitem(Interp& in, const Value& self, const Value& key) {
    auto* z = static_cast<NpzObj*>(self.o);
    if (is_kind(key, OK::Str)) {
        const std::string& k = key.as<StrObj>()->s;
        std::vector<std::string> files = z->files();
        for (size_t i = 0; i < files.size(); ++i) {
            const std::string& member = z->members[i].first;
            if (files[i] != k && member != k) continue;
            std::string bytes = member_data(z->data, z->members[i].second);
            bool npy = bytes.size() >= 6 && bytes.compare(0, 6, "\x93NUMPY", 6) == 0;
            if (!npy) raise(types::NotImplementedError, "gpy reads only .npy members of .npz archives: " + fmt::str_repr(member));
            return npy_parse(in, bytes, z->opt);
        }
    }
    raise(types::KeyError, to_str(in, key) + " is not a file in the archive");
}

Value names_list(const NpzObj* z) {
    std::vector<Value> items;
    for (auto& f : z->files()) items.push_back(make_str(f));
    return make_list(std::move(items));
}

Value npz_keys(Interp&, CallArgs& a) { return names_list(self_npz(a, "keys")); }
Value npz_values(Interp& in, CallArgs& a) {
    NpzObj* z = self_npz(a, "values");
    std::vector<Value> items;
    for (auto& f : z->files()) items.push_back(npz_getitem(in, a.pos[0], make_str(f)));
    return make_list(std::move(items));
}
Value npz_items(Interp& in, CallArgs& a) {
    NpzObj* z = self_npz(a, "items");
    std::vector<Value> items;
    for (auto& f : z->files()) items.push_back(make_tuple({make_str(f), npz_getitem(in, a.pos[0], make_str(f))}));
    return make_list(std::move(items));
}
Value npz_get(Interp& in, CallArgs& a) {
    self_npz(a, "get");
    if (a.npos < 2) raise(types::TypeError, "get expected at least 1 argument, got 0");
    NpzObj* z = static_cast<NpzObj*>(a.pos[0].o);
    if (is_kind(a.pos[1], OK::Str))
        for (auto& f : z->files())
            if (f == a.pos[1].as<StrObj>()->s) return npz_getitem(in, a.pos[0], a.pos[1]);
    return a.npos > 2 ? a.pos[2] : Value::none();
}
Value npz_close(Interp&, CallArgs& a) {
    self_npz(a, "close");
    return Value::none();
}
Value npz_enter(Interp&, CallArgs& a) {
    self_npz(a, "__enter__");
    return a.pos[0];
}
Value npz_exit(Interp&, CallArgs& a) {
    self_npz(a, "__exit__");
    return Value::none();
}

TypeObject* npz_type() {
    static TypeObject* t = [] {
        auto* type = new TypeObject("numpy.lib.npyio.NpzFile", nullptr, OK::Other);
        type->doc = "NpzFile: the arrays of a .npz archive, read when indexed (np.load of a .npz file)";
        type->getitem = npz_getitem;
        type->len = [](Interp&, const Value& v) { return int64_t(static_cast<NpzObj*>(v.o)->members.size()); };
        type->iter = [](Interp& in, const Value& v) { return get_iter(in, names_list(static_cast<NpzObj*>(v.o))); };
        type->getattr = [](Interp&, const Value& v, const std::string& name) -> Value {
            if (name == "files") return names_list(static_cast<NpzObj*>(v.o));
            return Value();
        };
        type->repr = [](Interp&, const Value& v) {
            auto* z = static_cast<NpzObj*>(v.o);
            std::vector<std::string> files = z->files();
            std::string keys;
            for (size_t k = 0; k < files.size() && k < 5; ++k) keys += (k ? ", " : "") + files[k];
            if (files.size() > 5) keys += "...";
            return "NpzFile " + fmt::str_repr(z->path) + " with keys: " + keys;
        };
        def_method(type, "keys", npz_keys, "keys()", "The names of the arrays.");
        def_method(type, "values", npz_values, "values()", "The arrays.");
        def_method(type, "items", npz_items, "items()", "(name, array) pairs.");
        def_method(type, "get", npz_get, "get(key, default=None)", "The array named key, or default.");
        def_method(type, "close", npz_close, "close()", "Does nothing: the archive is held in memory.");
        def_method(type, "__enter__", npz_enter, "__enter__()", "Returns self.");
        def_method(type, "__exit__", npz_exit, "__exit__(*exc)", "Does nothing.");
        return type;
    }();
    return t;
}

// savez(file, *args, **kwds).
Value savez(Interp& in, CallArgs& a, const char* fname) {
    if (a.npos < 1) raise(types::TypeError, std::string(fname) + "() missing 1 required positional argument: 'file'");
    std::string path = path_arg(a.pos[0], fname);
    if (path.size() < 4 || path.compare(path.size() - 4, 4, ".npz") != 0) path += ".npz";
    // NumPy's order: keyword arrays first, then arr_0, arr_1, ...
    std::vector<std::pair<std::string, std::string>> members;
    for (size_t k = 0; k < a.nkw(); ++k) {
        const auto& [key, value] = (*a.kw)[k];
        if (key != "allow_pickle") members.emplace_back(key + ".npy", npy_bytes(in, value));
    }
    size_t nkw = members.size();
    for (size_t k = 1; k < a.npos; ++k) {
        std::string key = "arr_" + std::to_string(k - 1);
        for (size_t j = 0; j < nkw; ++j)
            if (members[j].first == key + ".npy") raise(types::ValueError, "Cannot use un-named variables and keyword " + key);
        members.emplace_back(key + ".npy", npy_bytes(in, a.pos[k]));
    }
    write_file_bytes(path, zip_stored(members));
    return Value::none();
}

Value np_savez(Interp& in, CallArgs& a) { return savez(in, a, "savez"); }
Value np_savez_compressed(Interp& in, CallArgs& a) { return savez(in, a, "savez_compressed"); }

}  // namespace

Value npz_open(Interp&, const std::string& path, std::string data, const NpyLoadOptions& opt) {
    auto* z = new NpzObj();
    z->path = path;
    Value v = Value::object(z);
    z->members = zip_members(data);
    z->data = std::move(data);
    z->opt = opt;
    return v;
}

void add_npz_functions(Interp&, ModuleObj* m) {
    m->set("savez", make_builtin("savez", np_savez, "savez(file, *args, allow_pickle=True, **kwds)",
                                 "Save several arrays into a single uncompressed .npz file."));
    m->set("savez_compressed",
           make_builtin("savez_compressed", np_savez_compressed, "savez_compressed(file, *args, allow_pickle=True, **kwds)",
                        "Save several arrays into a single .npz file (gpy stores them uncompressed)."));
}

}  // namespace gpy
