#!/usr/bin/env python3
"""File interoperability of gpy and NumPy: .npy / .npz / text files written by
one are read by the other.

Usage: test_npy_interop.py --gpy PATH_TO_GPY

- gpy's np.save output is byte-identical to NumPy's and loads in NumPy as an
  equal array (every dtype, 0-d, empty, C and Fortran order, strided views);
- files NumPy writes (incl. big-endian and fortran_order=True, format 2.0 and
  3.0 headers, savez archives) load in gpy and print as NumPy prints them;
- np.savetxt writes the same text as NumPy for a set of formats, and
  np.loadtxt reads NumPy's files;
- truncated or corrupted .npy files give a ValueError (never a crash), and
  the ValueError text matches NumPy's for the corruptions NumPy words exactly.

Exits 0 when everything passes; prints each failure.
"""

import argparse
import os
import random
import subprocess
import sys
import tempfile

import numpy as np

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64", "complex64", "complex128"]
FAILURES = []


def run_gpy(gpy, script, tmp):
    path = os.path.join(tmp, "script.gpy")
    with open(path, "w") as f:
        f.write("import numpy as np\n" + script)
    p = subprocess.run([gpy, path], capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def check(name, ok, detail=""):
    if not ok:
        FAILURES.append(name)
        print("FAIL %s %s" % (name, detail))


def sample(dtype, shape):
    n = int(np.prod(shape)) if shape else 1
    vals = (np.arange(n) * 37 % 11 - 3).astype(np.float64) * 0.75
    if np.dtype(dtype).kind in "iu":
        vals = np.arange(n) * 37 % 11
    if dtype == "bool":
        return (np.arange(n) % 3 == 0).reshape(shape)
    return vals.astype(dtype).reshape(shape)


def gpy_array_expr(dtype, shape, tmp):
    # The same values as sample(), built by gpy (complex ones loaded from a NumPy file).
    n = int(np.prod(shape)) if shape else 1
    if np.dtype(dtype).kind == "c":
        path = os.path.join(tmp, "src_%s_%s.npy" % (dtype, "_".join(map(str, shape))))
        np.save(path, sample(dtype, shape))
        return "np.load(%r)" % path
    if dtype == "bool":
        return "(np.arange(%d) %% 3 == 0).reshape(%r)" % (n, shape)
    if np.dtype(dtype).kind in "iu":
        return "(np.arange(%d) * 37 %% 11).astype(np.%s).reshape(%r)" % (n, dtype, shape)
    return "((np.arange(%d) * 37 %% 11 - 3).astype(np.float64) * 0.75).astype(np.%s).reshape(%r)" % (n, dtype, shape)


def test_gpy_writes(gpy, tmp):
    shapes = [(), (0,), (3,), (2, 3), (0, 4), (2, 3, 2)]
    lines = []
    cases = []
    for dt in DTYPES:
        for shape in shapes:
            path = os.path.join(tmp, "g_%s_%d.npy" % (dt, len(cases)))
            lines.append("np.save(%r, %s)" % (path, gpy_array_expr(dt, shape, tmp)))
            cases.append((path, dt, shape, "C"))
        # Fortran order: a transpose; a strided view is written in C order
        path = os.path.join(tmp, "g_%s_F.npy" % dt)
        lines.append("np.save(%r, %s.T)" % (path, gpy_array_expr(dt, (3, 4), tmp)))
        cases.append((path, dt, (4, 3), "F"))
        path = os.path.join(tmp, "g_%s_V.npy" % dt)
        lines.append("np.save(%r, %s[::2, ::-1])" % (path, gpy_array_expr(dt, (4, 3), tmp)))
        cases.append((path, dt, (2, 3), "V"))
    code, out, err = run_gpy(gpy, "\n".join(lines) + "\n", tmp)
    check("gpy save script", code == 0, err)
    if code != 0:
        return
    for path, dt, shape, order in cases:
        got = np.load(path)
        if order == "F":
            want = sample(dt, (3, 4)).T
        elif order == "V":
            want = sample(dt, (4, 3))[::2, ::-1]
        else:
            want = sample(dt, shape)
        check("load gpy file %s" % os.path.basename(path),
              got.dtype == want.dtype and got.shape == want.shape and np.array_equal(got, want),
              "%r vs %r" % (got, want))
        reference = os.path.join(tmp, "ref.npy")
        np.save(reference, want)
        with open(path, "rb") as f1, open(reference, "rb") as f2:
            check("bytes of %s" % os.path.basename(path), f1.read() == f2.read())


def numpy_files(tmp):
    """(path, array) pairs NumPy writes: every dtype, both byte orders, both memory orders."""
    files = []
    for dt in DTYPES:
        for shape in [(), (0,), (5,), (2, 3), (3, 0, 2)]:
            a = sample(dt, shape)
            files.append(a)
            if a.dtype.itemsize > 1:
                files.append(a.astype(a.dtype.newbyteorder(">")))
        files.append(np.asfortranarray(sample(dt, (3, 4))))
        files.append(np.asfortranarray(sample(dt, (2, 3))).astype(np.dtype(dt).newbyteorder(">"), order="F"))
    out = []
    for k, a in enumerate(files):
        path = os.path.join(tmp, "n_%d.npy" % k)
        np.save(path, a)
        out.append((path, a))
    # Format versions 2.0 and 3.0 headers
    for version in [(2, 0), (3, 0)]:
        a = sample("float32", (2, 2))
        path = os.path.join(tmp, "n_v%d.npy" % version[0])
        with open(path, "wb") as f:
            np.lib.format.write_array(f, a, version=version)
        out.append((path, a))
    return out


def test_gpy_reads(gpy, tmp):
    files = numpy_files(tmp)
    script = "".join("x = np.load(%r)\nprint(x.dtype, x.shape)\nprint(repr(x))\n" % p for p, _ in files)
    code, out, err = run_gpy(gpy, script, tmp)
    check("gpy load script", code == 0, err[-2000:])
    want = "".join("%s %s\n%r\n" % (a.dtype.newbyteorder("="), a.shape, a.astype(a.dtype.newbyteorder("=")))
                   for _, a in files)
    if code == 0:
        got_lines, want_lines = out.split("\n"), want.split("\n")
        for k, (g, w) in enumerate(zip(got_lines, want_lines)):
            if g != w:
                check("gpy prints NumPy's files", False, "line %d: %r != %r" % (k, g, w))
                break
        check("gpy prints NumPy's files (line count)", len(got_lines) == len(want_lines))


def test_npz(gpy, tmp):
    src = os.path.join(tmp, "n.npz")
    np.savez(src, sample("int16", (2, 3)), w=sample("float32", (4,)))
    dst = os.path.join(tmp, "g.npz")
    script = ("z = np.load(%r)\nprint(z.files)\nprint(z['arr_0'])\nprint(z['w'])\n"
              "np.savez(%r, z['arr_0'], w=z['w'])\n" % (src, dst))
    code, out, err = run_gpy(gpy, script, tmp)
    check("npz script", code == 0, err)
    z = np.load(src)
    check("npz print", out == "%s\n%s\n%s\n" % (z.files, z["arr_0"], z["w"]), out)
    if code == 0:
        g = np.load(dst)
        check("npz written by gpy", sorted(g.files) == sorted(z.files) and
              all(np.array_equal(g[k], z[k]) and g[k].dtype == z[k].dtype for k in z.files))


def test_text(gpy, tmp):
    x = np.array([[1.5, -2.0, 3.25], [1e-7, 5e10, -6.125]])
    cases = [dict(), dict(fmt="%.3f", delimiter=","), dict(fmt=["%d", "%10.4e", "%g"], header="a\nb", footer="f"),
             dict(fmt="%s", newline="\r\n", comments="% ", header="h"), dict(fmt="%+.2e|%-8.1f|%g")]
    lines = ["x = np.array(%r)" % x.tolist()]
    for k, kw in enumerate(cases):
        lines.append("np.savetxt(%r, x, %s)" % (os.path.join(tmp, "g_%d.txt" % k),
                                                ", ".join("%s=%r" % kv for kv in kw.items())))
    ints = np.array([[1, -2], [300, 4]], dtype=np.int16)
    lines.append("np.savetxt(%r, np.array(%r, dtype=np.int16), fmt='%%d')" % (os.path.join(tmp, "g_int.txt"), ints.tolist()))
    f32 = np.array([0.1, 1 / 3, 1e-8], dtype=np.float32)
    lines.append("np.savetxt(%r, np.array([0.1, 1 / 3, 1e-8], dtype=np.float32))" % os.path.join(tmp, "g_f32.txt"))
    lines.append("np.savetxt(%r, np.array([0.1, 1 / 3, 1e-8], dtype=np.float32), fmt='%%s')" % os.path.join(tmp, "g_f32s.txt"))
    code, out, err = run_gpy(gpy, "\n".join(lines) + "\n", tmp)
    check("savetxt script", code == 0, err)
    if code != 0:
        return
    ref = os.path.join(tmp, "ref.txt")
    for k, kw in enumerate(cases):
        np.savetxt(ref, x, **kw)
        with open(ref, "rb") as f1, open(os.path.join(tmp, "g_%d.txt" % k), "rb") as f2:
            a, b = f1.read(), f2.read()
            check("savetxt %r" % kw, a == b, "%r != %r" % (b, a))
    for name, arr, kw in [("g_int.txt", ints, dict(fmt="%d")), ("g_f32.txt", f32, {}), ("g_f32s.txt", f32, dict(fmt="%s"))]:
        np.savetxt(ref, arr, **kw)
        with open(ref, "rb") as f1, open(os.path.join(tmp, name), "rb") as f2:
            a, b = f1.read(), f2.read()
            check("savetxt " + name, a == b, "%r != %r" % (b, a))
    # loadtxt of NumPy's files
    paths = []
    for k, (arr, kw) in enumerate([(x, {}), (ints, dict(fmt="%d", delimiter=",")), (f32, {})]):
        p = os.path.join(tmp, "n_%d.txt" % k)
        np.savetxt(p, arr, **kw)
        paths.append((p, arr, kw))
    script = "".join("print(repr(np.loadtxt(%r, dtype=np.%s%s)))\n" % (p, arr.dtype, ", delimiter=','" if kw.get("delimiter") else "")
                     for p, arr, kw in paths)
    code, out, err = run_gpy(gpy, script, tmp)
    want = "".join("%r\n" % np.loadtxt(p, dtype=arr.dtype, delimiter=kw.get("delimiter")) for p, arr, kw in paths)
    check("loadtxt of NumPy files", code == 0 and out == want, "%s%r != %r" % (err, out, want))


def numpy_load_error(path):
    try:
        np.load(path)
    except ValueError as e:
        return str(e)
    except Exception as e:  # EOFError, UnicodeDecodeError, ...: gpy's wording may differ
        return None
    return "<loaded>"


def test_corrupt(gpy, tmp):
    good = os.path.join(tmp, "good.npy")
    np.save(good, np.arange(10, dtype=np.float64).reshape(2, 5))
    data = open(good, "rb").read()
    rng = random.Random(1234)
    variants = []
    for cut in [0, 3, 6, 7, 8, 9, 20, 60, 127, 128, 130, len(data) - 1]:
        variants.append(data[:cut])
    for k in range(60):  # flip bytes in the header
        b = bytearray(data)
        for _ in range(rng.randint(1, 4)):
            b[rng.randrange(0, 128)] = rng.randrange(0, 256)
        variants.append(bytes(b))
    for text in [b"{'descr': '<f8', 'fortran_order': False}", b"[1, 2]", b"{'descr': 'xyz', 'fortran_order': False, 'shape': (2,)}",
                 b"{'descr': '<f8', 'fortran_order': 1, 'shape': (2,)}", b"{'descr': '<f8', 'fortran_order': False, 'shape': (2.0,)}",
                 b"{'descr': '<f8', 'fortran_order': False, 'shape': (-1,)}", b"{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999,)}",
                 b"{'descr': '<f8', 'fortran_order': False, 'shape': (2,), 'x': 1}", b"{'descr': '<f8'", b"not python"]:
        header = text + b" " * (118 - len(text) % 64) + b"\n"
        variants.append(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header + b"\0" * 16)
    variants.append(b"\x93NUMPY\x04\x00" + data[8:])
    paths = []
    for k, v in enumerate(variants):
        p = os.path.join(tmp, "bad_%d.npy" % k)
        with open(p, "wb") as f:
            f.write(v)
        paths.append(p)
    script = ("for p in %r:\n"
              "    try:\n"
              "        x = np.load(p)\n"
              "        print('<loaded>')\n"
              "    except (ValueError, TypeError, NotImplementedError, UnicodeError) as e:\n"
              "        print(type(e).__name__ + ': ' + str(e).replace(chr(10), ' '))\n" % paths)
    code, out, err = run_gpy(gpy, script, tmp)
    check("corrupt files: no crash", code == 0, err[-2000:])
    got = out.split("\n")
    for k, p in enumerate(paths):
        want = numpy_load_error(p)
        if want is None or k >= len(got):
            continue
        if want == "<loaded>":
            ok = got[k] == "<loaded>" or got[k].startswith(("TypeError", "NotImplementedError"))
        else:
            want = want.replace("\n", " ")
            # Headers that are not literals: NumPy's message names an AST node
            # ("malformed node or string ...") or quotes the header after its
            # own clean-up; gpy says "Cannot parse header: ..." for both.
            unparsable = want.startswith(("Cannot parse header", "malformed node"))
            ok = got[k] == "ValueError: " + want or (unparsable and got[k].startswith("ValueError: Cannot parse header"))
        check("corrupt file %d" % k, ok, "gpy %r, NumPy %r" % (got[k], want))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpy", required=True)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        test_gpy_writes(args.gpy, tmp)
        test_gpy_reads(args.gpy, tmp)
        test_npz(args.gpy, tmp)
        test_text(args.gpy, tmp)
        test_corrupt(args.gpy, tmp)
    print("%d failures" % len(FAILURES))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
