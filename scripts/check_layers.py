#!/usr/bin/env python3
"""Fails when a source file includes a header of a layer above its own.

The layers (docs/architecture.md, "Layers"), each a static library that links
only those below it:

    base -> lang, codegen -> runtime -> numpy -> embed -> repl, cli

`include/gpy/gpy.h` (the public API) may be included by lang and above. The
libraries' link order already fails on a call that goes up; this check also
catches a header-only dependency (an inline function, a type) before it grows
into one. Usage: scripts/check_layers.py [REPO_ROOT]
"""
import os
import re
import sys

# What each folder may include besides itself ("gpy" is include/gpy/).
ALLOWED = {
    "base": set(),
    "lang": {"base", "gpy"},
    "codegen": {"base"},
    "runtime": {"base", "codegen"},
    "numpy": {"base", "lang", "codegen", "runtime", "gpy"},
    "embed": {"base", "lang", "codegen", "runtime", "numpy", "gpy"},
    "repl": {"gpy"},
    "cli": {"gpy", "repl", "runtime"},
}
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"/]+)/[^"]+"', re.M)


def violations(root):
    bad = []
    for layer, allowed in ALLOWED.items():
        folder = os.path.join(root, layer)
        # Subfolders belong to their layer (runtime/llvm/).
        files = sorted(os.path.relpath(os.path.join(d, f), folder) for d, _, fs in os.walk(folder) for f in fs)
        for name in files:
            if not name.endswith((".h", ".cpp", ".inc")):
                continue
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            for m in INCLUDE.finditer(text):
                target = m.group(1)
                if target != layer and target not in allowed:
                    line = text.count("\n", 0, m.start()) + 1
                    bad.append(f"{layer}/{name}:{line}: includes {m.group(0).strip()!r}: "
                               f"{layer}/ may include only {sorted(allowed | {layer})}")
    return bad


def self_test():
    """The check itself can fail: an include from codegen/ up into runtime/ is caught."""
    import tempfile
    with tempfile.TemporaryDirectory() as root:
        for layer, text in {"codegen": '#include "base/dtype.h"\n#include "runtime/cuda_memory.h"\n',
                            "runtime": '#include "codegen/dag.h"\n'}.items():
            os.makedirs(os.path.join(root, layer))
            with open(os.path.join(root, layer, "x.h"), "w") as f:
                f.write(text)
        found = violations(root)
    return len(found) == 1 and found[0].startswith("codegen/x.h:2:")


def main():
    if not self_test():
        print("check_layers: the self-test did not catch its planted violation")
        return 1
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    bad = violations(root)
    for b in bad:
        print(b)
    print(f"check_layers: {len(bad)} include(s) against the layering")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
