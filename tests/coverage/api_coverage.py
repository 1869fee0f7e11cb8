"""How much of NumPy 2's public API for numeric arrays gpy has (issue 21).

Compares the public names of NumPy's `numpy`, `numpy.linalg`, `numpy.fft`,
`numpy.random` (and `Generator`'s methods), `ndarray`'s and `dtype`'s
attributes and methods, and a ufunc's methods with gpy's, leaving out what
does not apply to numeric dtypes (OUT_OF_SCOPE below, each with its reason,
as docs/differences.md names them). Prints the covered percentage per name
space and overall, and the missing names.

    python3 tests/coverage/api_coverage.py --gpy build/gpy [--check]

--check fails (exit 1) when the overall figure is below the one recorded in
tests/coverage/floor.txt: CI runs it, so coverage can only go up. Raise the
floor when you add names (the tool prints the line to write)."""
import argparse
import os
import subprocess
import sys
import types

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))

# Names that do not apply to numeric (bool, integer, float, complex) arrays,
# or are NumPy's own machinery. Each group says why.
OUT_OF_SCOPE = {
    # datetime64 / timedelta64 and business days
    'datetime': 'busday_count busday_offset busdaycalendar datetime64 datetime_as_string datetime_data is_busday isnat timedelta64',
    # strings, bytes, void, object and structured/record arrays
    'strings': 'bytes_ character char flexible object_ str_ strings void rec recarray record fromregex',
    # masked arrays, the matrix class, memory maps and buffers
    'other array kinds': 'ma matrix asmatrix bmat memmap from_dlpack frombuffer fromfile fromstring',
    # packaging, build and test machinery; submodules that are namespaces only
    'machinery': 'core ctypeslib dtypes f2py lib testing typing test show_config show_runtime get_include info '
                 'getbufsize setbufsize geterrcall seterrcall typename mintypecode sctypeDict ScalarType typecodes '
                 'little_endian polynomial emath',
    # extended precision: no float128/complex256 in gpy (docs/differences.md)
    'long double': 'float128 complex256 longdouble clongdouble',
    # iterator objects of NumPy's C API
    'iterators': 'nditer nested_iters flatiter broadcast ndenumerate ndindex',
}
OUT = set(' '.join(OUT_OF_SCOPE.values()).split())

# Attributes of ndarray that are buffer/C-level machinery.
NDARRAY_OUT = set('ctypes data dumps dump setflags getfield setfield to_device __array_namespace__ mT base device'.split()) - {'base', 'mT', 'device'}
DTYPE_OUT = set('fields names metadata subdtype isalignedstruct hasobject isbuiltin isnative newbyteorder num byteorder alignment descr flags base shape ndim'.split())
UFUNC_OUT = set('ntypes types signature resolve_dtypes'.split())


def public(obj):
    return sorted(n for n in dir(obj) if not n.startswith('_'))


def numpy_spaces():
    spaces = {}
    spaces['numpy'] = [n for n in public(np) if n not in OUT and not n.startswith('_')]
    def functions(mod):  # a submodule's own names (not its test runner or submodules)
        return [n for n in public(mod) if n != 'test' and not isinstance(getattr(mod, n), types.ModuleType)]
    spaces['numpy.linalg'] = functions(np.linalg)
    spaces['numpy.fft'] = functions(np.fft)
    # (the bit generators other than the default, and RandomState's class, are NumPy's stream machinery)
    spaces['numpy.random'] = [n for n in functions(np.random)
                              if n not in ('BitGenerator', 'MT19937', 'PCG64', 'PCG64DXSM', 'Philox', 'SFC64', 'RandomState')]
    spaces['Generator'] = [n for n in public(np.random.Generator) if n != 'bit_generator']
    spaces['ndarray'] = [n for n in public(np.ndarray) if n not in NDARRAY_OUT]
    spaces['dtype'] = [n for n in public(np.dtype) if n not in DTYPE_OUT]
    spaces['ufunc'] = [n for n in public(np.ufunc) if n not in UFUNC_OUT]
    return spaces


GPY_PROBE = r'''
import numpy as np
def names(x):
    return ' '.join(n for n in dir(x) if not n.startswith('_'))
def try_names(label, f):
    try:
        print(label + ':' + names(f()))
    except Exception as e:
        print(label + ':')
try_names('numpy', lambda: np)
try_names('numpy.linalg', lambda: np.linalg)
try_names('numpy.fft', lambda: np.fft)
try_names('numpy.random', lambda: np.random)
try_names('Generator', lambda: np.random.default_rng(0))
try_names('ndarray', lambda: np.zeros((2, 2)))  # 2-d: .mT of a 1-d array raises
try_names('dtype', lambda: np.dtype('float64'))
try_names('ufunc', lambda: np.add)
'''


def gpy_spaces(gpy):
    r = subprocess.run([gpy, '-c', GPY_PROBE], capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        sys.exit('gpy failed:\n' + r.stdout + r.stderr)
    out = {}
    for line in r.stdout.splitlines():
        label, _, rest = line.partition(':')
        out[label] = set(rest.split())
    # Attributes served by a type's getattr slot do not appear in dir(): ask for each.
    return out


def probe_attributes(gpy, space, expr, names):
    """The names of `names` that `expr` has as attributes in gpy (dir() does not list data attributes)."""
    lines = ['import numpy as np', 'x = ' + expr, 'have = []']
    for n in names:
        lines.append('try:\n    getattr(x, %r)\n    have.append(%r)\nexcept Exception:\n    pass' % (n, n))
    lines.append("print(' '.join(have))")
    r = subprocess.run([gpy, '-c', '\n'.join(lines)], capture_output=True, text=True, timeout=120)
    return set(r.stdout.split())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--gpy', required=True)
    ap.add_argument('--check', action='store_true', help='fail below tests/coverage/floor.txt')
    ap.add_argument('--quiet', action='store_true', help='no list of missing names')
    args = ap.parse_args()
    want = numpy_spaces()
    have = gpy_spaces(args.gpy)
    exprs = {'numpy': 'np', 'numpy.linalg': 'np.linalg', 'numpy.fft': 'np.fft', 'numpy.random': 'np.random',
             'Generator': 'np.random.default_rng(0)', 'ndarray': 'np.zeros((2, 2))', 'dtype': "np.dtype('float64')", 'ufunc': 'np.add'}
    total = covered = 0
    rows = []
    for space, names in want.items():
        got = have.get(space, set())
        missing = [n for n in names if n not in got]
        if missing:  # getattr-slot attributes and module attributes dir() may not list
            got |= probe_attributes(args.gpy, space, exprs[space], missing)
            missing = [n for n in names if n not in got]
        n_cov = len(names) - len(missing)
        total += len(names)
        covered += n_cov
        rows.append((space, n_cov, len(names), missing))
    print('NumPy %s public API for numeric arrays, covered by gpy:' % np.__version__)
    for space, n_cov, n, missing in rows:
        print('  %-13s %4d / %4d  %5.1f%%' % (space, n_cov, n, 100.0 * n_cov / max(n, 1)))
    pct = 100.0 * covered / total
    print('  %-13s %4d / %4d  %5.1f%%' % ('overall', covered, total, pct))
    if not args.quiet:
        for space, _, _, missing in rows:
            if missing:
                print('\nmissing from %s (%d):\n  %s' % (space, len(missing), ' '.join(missing)))
    floor_path = os.path.join(HERE, 'floor.txt')
    if args.check:
        floor = float(open(floor_path).read().split()[0])
        if round(pct, 1) < floor:  # the floor is recorded to one decimal
            print('\nFAIL: coverage %.1f%% is below the recorded floor %.1f%% (%s)' % (pct, floor, floor_path))
            return 1
        print('\ncoverage %.1f%% >= floor %.1f%%' % (pct, floor))
        if pct >= floor + 0.5:
            print('raise the floor: echo %.1f > %s' % (int(pct * 10) / 10.0, os.path.relpath(floor_path)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
