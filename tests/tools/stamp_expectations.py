"""Writes the expectations of a script test from real Python and NumPy.

    python3 tests/tools/stamp_expectations.py FILE.gpy [...]

Runs each file with python3 (NumPy 2 installed) and appends `# expect: LINE`
to its top-level `print(...)` lines, in order, replacing any expectation they
had: one line of output per such print (make each print a single line, e.g.
print(check(lambda: EXPR)) with a check() that flattens reprs). Fails, writing
nothing, when the counts differ. The expectations are NumPy's by
construction; a gpy difference then shows as a failing script test."""
import re
import subprocess
import sys

PRINT = re.compile(r'^print\(.*\)\s*(#\s*expect:.*)?$')


def stamp(path):
    with open(path) as f:
        lines = f.read().split('\n')
    src = '\n'.join(re.sub(r'\s*#\s*expect:.*$', '', l) if PRINT.match(l) else l for l in lines)
    r = subprocess.run([sys.executable, '-W', 'ignore', '-c', src], capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        sys.exit('%s: python3 failed:\n%s' % (path, r.stderr))
    out = r.stdout.split('\n')
    if out and out[-1] == '':
        out.pop()
    targets = [i for i, l in enumerate(lines) if PRINT.match(l)]
    if len(targets) != len(out):
        sys.exit('%s: %d print lines but %d lines of output' % (path, len(targets), len(out)))
    for i, text in zip(targets, out):
        base = re.sub(r'\s*#\s*expect:.*$', '', lines[i])
        lines[i] = base + '  # expect: ' + text
    with open(path, 'w') as f:
        f.write('\n'.join(lines))
    print('%s: %d expectations' % (path, len(targets)))


for p in sys.argv[1:]:
    stamp(p)
