#!/usr/bin/env python3
"""Tests of the gpy command line, run as subprocesses.

Usage: python3 tests/cli/test_cli.py --gpy build/gpy [-k SUBSTRING] [-v]

Covers options (--version, --help, -c, -i, --backend, ...), sys.argv, exit
codes (0 ok, 1 uncaught exception, 2 syntax error / bad usage / missing file,
sys.exit(N)), programs on standard input, and the exact shape of tracebacks
and syntax-error diagnostics. Prints one FAIL line per failing test, then
"N passed, N failed"; exits non-zero when anything failed.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import traceback

GPY = None
VERBOSE = False
TIMEOUT = 20
TESTS = []


def test(fn):
    TESTS.append(fn)
    return fn


class Run:
    def __init__(self, proc):
        self.rc = proc.returncode
        self.out = proc.stdout
        self.err = proc.stderr

    def __repr__(self):
        return f"rc={self.rc}\n--- stdout ---\n{self.out}--- stderr ---\n{self.err}"


def gpy(*args, stdin=None, cwd=None, env=None):
    """Runs gpy with `args`; `stdin` is text to pipe in (default: /dev/null)."""
    full_env = dict(os.environ)
    full_env.pop("NO_COLOR", None)
    if env:
        full_env.update(env)
    proc = subprocess.run(
        [GPY, *args],
        input=stdin,
        stdin=subprocess.DEVNULL if stdin is None else None,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=full_env,
        timeout=TIMEOUT,
    )
    return Run(proc)


class Failure(Exception):
    pass


def check(cond, what, run=None):
    if not cond:
        raise Failure(what + (f"\n{run!r}" if run is not None else ""))


def check_eq(got, want, what, run=None):
    if got != want:
        raise Failure(f"{what}: expected {want!r}, got {got!r}" + (f"\n{run!r}" if run is not None else ""))


class TempDir:
    def __enter__(self):
        self.path = tempfile.mkdtemp(prefix="gpy_cli_")
        return self

    def __exit__(self, *exc):
        shutil.rmtree(self.path, ignore_errors=True)

    def write(self, name, text):
        with open(os.path.join(self.path, name), "w") as f:
            f.write(text)
        return name


def have_gpu():
    try:
        return subprocess.run(["nvidia-smi"], capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


# ---- options ----

@test
def version():
    r = gpy("--version")
    check_eq(r.rc, 0, "exit code", r)
    check_eq(r.out.strip(), "gpy 0.1.0", "--version output", r)
    r = gpy("-V")
    check_eq(r.out.strip(), "gpy 0.1.0", "-V output", r)


@test
def profile_table():
    # Three statements that each observe the same kernel's result, one other kernel.
    prog = ("import numpy as np\nx = np.arange(4096, dtype=np.float32)\n"
            "for i in range(3):\n    print(float((np.exp(x) * 2)[1]))\nprint(int(np.sum(x > 5)))\n")
    r = gpy("--profile", "--backend", "cpu", "-c", prog)  # the CPU plan: on a GPU a new fused reduction runs unfused first (stand-ins)
    check_eq(r.rc, 0, "exit code", r)
    check(re.search(r"^gpy: profile: 2 kernels, 4 launches, [0-9.]+ ms in kernels$", r.err, re.M) is not None,
          "--profile prints the kernel and launch counts", r)
    row = re.search(r"^\s+3\s+[0-9.]+\s+[0-9.]+\s+[0-9.]+\s+([0-9.]+)\s+[0-9.]+\s+gpy_k_[0-9a-f]{16}: multiply\(exp\(float32\), scalar\)",
                    r.err, re.M)
    check(row is not None, "--profile has a row for the exp kernel with 3 launches", r)
    # Each launch reads 4096 float32 and writes 4096 (32 KiB); the two later ones 0.07 MB.
    check_eq(row.group(1), "0.07", "MB moved by the two later launches (2 x 32 KiB)", r)
    r = gpy("-c", prog)
    check("gpy: profile" not in r.err, "no table without --profile", r)


@test
def debug_plan_report():
    # GPY_DEBUG=1 names each kernel, what it computes and what forced it.
    prog = ("import numpy as np\nx = np.arange(4.0)\ny = x * 2\nx[0] = 7.0\nprint(y)\n"
            "z = np.ones(4)\nfor i in range(40):\n    z = z * 1.5 + 1\nprint(bool(z[0] > 1))\n")
    r = gpy("-c", prog, env={"GPY_DEBUG": "1"})
    check_eq(r.rc, 0, "exit code", r)
    check_eq(r.out, "[0. 2. 4. 6.]\nTrue\n", "output", r)
    check(re.search(r"^gpy: kernel gpy_k_[0-9a-f]{16}: multiply\(float64, scalar\) -> float64\[4\] "
                    r"\[an in-place write into memory it reads\] \(line 3\)$", r.err, re.M) is not None,
          "y is computed before x is written, and the report says why and which line built it", r)
    check("[the pending graph passed 64 operations] (line 8)" in r.err, "the loop's graph is cut at the cap", r)
    check(re.search(r"greater\(float64, scalar\) -> bool\[\] \[observed on the host\] \(line 9\)$", r.err, re.M) is not None,
          "bool() observes the comparison", r)
    # Shared values weigh once per use (here 2^31 uses of z) but count once
    # against the cap: 31 distinct operations stay one kernel.
    prog = ("import numpy as np\nz = np.ones(4) * 1.5\nfor i in range(30):\n    z = z + z\nprint(z[0])\n")
    r = gpy("-c", prog, env={"GPY_DEBUG": "1"})
    check_eq(r.out, "1610612736.0\n", "output", r)
    check_eq(len(re.findall(r"^gpy: kernel gpy_k_[0-9a-f]{16}: add\(", r.err, re.M)), 1, "one kernel for the whole loop", r)
    check("passed 64" not in r.err, "the cap counts distinct operations", r)
    # A kernel that fuses statements names each of their lines.
    prog = "import numpy as np\nx = np.ones(3)\n\ny = x + 1\nz = y * 2\nw = z - 3\nprint(w)\n"
    r = gpy("-c", prog, env={"GPY_DEBUG": "1"})
    check(re.search(r"subtract\(multiply\(add\(.*\[observed on the host\] \(lines 4-6\)$", r.err, re.M) is not None,
          "three statements fused into one kernel are named by their lines", r)


@test
def inplace_view_update_is_one_kernel():
    # `out[1:, :] -= v[:-1, :]` computes into out's memory: one kernel, no
    # temporary and no copy back (the stencil lines of a Laplacian).
    prog = ("import numpy as np\nv = np.arange(12.0).reshape(3, 4)\nout = v * 4.0\nprint(out[0, 0])\n"
            "out[1:, :] -= v[:-1, :]\nout[:, :-1] -= v[:, 1:]\nprint(out[2, 2])\n")
    r = gpy("-c", prog, env={"GPY_DEBUG": "1"})
    check_eq(r.rc, 0, "exit code", r)
    check_eq(r.out, "0.0\n23.0\n", "output", r)
    kernels = [l for l in r.err.splitlines() if l.startswith("gpy: kernel")]
    check_eq(len([l for l in kernels if "(line 5)" in l or "(line 6)" in l]), 2, "one kernel per in-place statement", r)


@test
def help_lists_options():
    r = gpy("--help")
    check_eq(r.rc, 0, "exit code", r)
    for opt in ("--backend", "--device", "--cache-dir", "--dump-kernels", "-c", "-i"):
        check(opt in r.out, f"--help mentions {opt}", r)


@test
def dash_c_runs_code():
    r = gpy("-c", "print(6 * 7)\nprint('two lines')")
    check_eq(r.rc, 0, "exit code", r)
    check_eq(r.out, "42\ntwo lines\n", "stdout", r)
    check_eq(r.err, "", "stderr", r)


@test
def dash_c_argv():
    r = gpy("-c", "import sys; print(sys.argv)", "a", "--flag", "-c")
    check_eq(r.rc, 0, "exit code", r)
    check_eq(r.out, "['-c', 'a', '--flag', '-c']\n", "sys.argv", r)


@test
def script_argv():
    with TempDir() as d:
        d.write("args.gpy", "import sys\nprint(sys.argv)\nprint(len(sys.argv))\n")
        r = gpy("args.gpy", "one", "--two", "3", "-i", cwd=d.path)
        check_eq(r.rc, 0, "exit code", r)
        check_eq(r.out, "['args.gpy', 'one', '--two', '3', '-i']\n5\n", "sys.argv", r)
        # Options before the script belong to gpy.
        r = gpy("--backend", "cpu", "args.gpy", "x", cwd=d.path)
        check_eq(r.out, "['args.gpy', 'x']\n2\n", "sys.argv after gpy options", r)


@test
def script_runs_with_relative_and_absolute_path():
    with TempDir() as d:
        d.write("hello.gpy", "def greet(name):\n    return f'hello, {name}!'\nprint(greet('gpy'))\n")
        r = gpy(os.path.join(d.path, "hello.gpy"))
        check_eq(r.rc, 0, "exit code", r)
        check_eq(r.out, "hello, gpy!\n", "stdout", r)


# ---- exit codes ----

@test
def exit_code_ok():
    r = gpy("-c", "x = 1")
    check_eq(r.rc, 0, "exit code", r)
    check_eq(r.out + r.err, "", "no output", r)


@test
def exit_code_runtime_error():
    r = gpy("-c", "print('before')\n[][0]\nprint('after')")
    check_eq(r.rc, 1, "exit code", r)
    check_eq(r.out, "before\n", "stdout up to the error", r)
    check("IndexError: list index out of range" in r.err, "error text on stderr", r)


@test
def exit_code_syntax_error():
    r = gpy("-c", "print('never')\nx = = 1")
    check_eq(r.rc, 2, "exit code", r)
    check_eq(r.out, "", "nothing runs when the program does not parse", r)
    check(re.search(r"^<string>:2:\d+: error: ", r.err, re.M) is not None, "diagnostic header", r)


@test
def exit_code_bad_option():
    r = gpy("--no-such-option")
    check_eq(r.rc, 2, "exit code", r)
    check(r.err.strip() != "", "a message on stderr", r)
    r = gpy("--device", "-1", "-c", "pass")
    check_eq(r.rc, 2, "exit code for --device -1", r)
    r = gpy("--color", "purple", "-c", "pass")
    check_eq(r.rc, 2, "exit code for --color purple", r)


@test
def exit_code_missing_file():
    r = gpy("/nonexistent/dir/missing.gpy")
    check_eq(r.rc, 2, "exit code", r)
    check("missing.gpy" in r.err, "the file is named in the message", r)


@test
def exit_code_sys_exit():
    r = gpy("-c", "import sys\nprint('a')\nsys.exit(3)\nprint('b')")
    check_eq(r.rc, 3, "exit code", r)
    check_eq(r.out, "a\n", "stdout", r)
    r = gpy("-c", "import sys\nsys.exit()")
    check_eq(r.rc, 0, "sys.exit()", r)
    r = gpy("-c", "import sys\nsys.exit('fatal: bad input')")
    check_eq(r.rc, 1, "sys.exit(str)", r)
    check_eq(r.err, "fatal: bad input\n", "sys.exit(str) prints the message", r)


# ---- standard input ----

@test
def stdin_dash():
    r = gpy("-", stdin="print(1)\n")
    check_eq(r.rc, 0, "exit code", r)
    check_eq(r.out, "1\n", "stdout", r)


@test
def stdin_piped_without_script():
    r = gpy(stdin="x = 20\nfor i in range(2):\n    x += 1\nprint(x)\n")
    check_eq(r.rc, 0, "exit code", r)
    check_eq(r.out, "22\n", "stdout", r)
    r = gpy(stdin="print(1 / 0)\n")
    check_eq(r.rc, 1, "runtime error from stdin", r)
    check("<stdin>:1:7: error: ZeroDivisionError: division by zero" in r.err, "file named <stdin>", r)


@test
def stdin_args():
    r = gpy("-", "p", "q", stdin="import sys\nprint(sys.argv)\n")
    check_eq(r.rc, 0, "exit code", r)
    check_eq(r.out, "['-', 'p', 'q']\n", "sys.argv", r)


@test
def interactive_after_script():
    with TempDir() as d:
        d.write("setup.gpy", "x = 41\nprint('script ran')\n")
        r = gpy("-i", "setup.gpy", stdin="x + 1\nprint('repl', x)\n", cwd=d.path)
        check_eq(r.rc, 0, "exit code", r)
        check(r.out.startswith("script ran\n"), "script output comes first", r)
        i42 = r.out.find("42")
        irepl = r.out.find("repl 41")
        check(i42 > 0 and irepl > i42, "then the REPL lines, in order", r)


@test
def interactive_after_script_error_still_starts_repl():
    with TempDir() as d:
        d.write("bad.gpy", "y = 5\nz = 1 / 0\n")
        r = gpy("-i", "bad.gpy", stdin="print('y is', y)\n", cwd=d.path)
        check("ZeroDivisionError" in r.err, "the script's error is reported", r)
        check("y is 5" in r.out, "the REPL runs with the script's state", r)


@test
def invalid_utf8_source_is_a_syntax_error():
    with TempDir() as d:
        with open(os.path.join(d.path, "bad.gpy"), "wb") as f:
            f.write(b'print("ok")\ns = "caf\xe9"\n')
        r = gpy("bad.gpy", cwd=d.path)
        check_eq(r.rc, 2, "exit code", r)
        check("bad.gpy:2:9: error: Non-UTF-8 code starting with '\\xe9' in file bad.gpy on line 2" in r.err, "CPython's message, at the byte", r)
        check_eq(r.out, "", "nothing runs", r)


@test
def kernel_cache_entry_that_is_a_fifo_is_skipped():
    with TempDir() as d:
        d.write("k.gpy", "import numpy as np\nx = np.arange(5.0)\nprint(np.exp(x * 2 + 1).sum())\n")
        cache = os.path.join(d.path, "cache")
        env = {"GPY_CACHE_DIR": cache}
        first = gpy("--backend", "cpu", "k.gpy", cwd=d.path, env=env)
        check_eq(first.rc, 0, "first run", first)
        entries = [os.path.join(root, f) for root, _, files in os.walk(cache) for f in files]
        check(len(entries) > 0, "the first run filled the cache", first)
        for e in entries:
            os.remove(e)
            os.mkfifo(e)
        again = gpy("--backend", "cpu", "k.gpy", cwd=d.path, env=env)  # gpy() times out after 20 s
        check_eq((again.rc, again.out), (0, first.out), "the same result, nothing waits on the FIFO", again)
        # One warning per cache (the CPU objects; under CI also the NVRTC shadow compiles').
        warned = re.findall(r"kernel cache entry '(.*)' is not a regular file; ignored", again.err)
        check(len(warned) >= 1 and len({os.path.dirname(w) for w in warned}) == len(warned), "one warning per cache folder", again)


# ---- Ctrl-C (SIGINT) in script mode ----


def finish(proc, timeout, stdin=None):
    """The rest of a Popen's stdout and stderr once it exits. (Not
    communicate(): after a readline() on proc.stdout, output already in that
    file object's buffer would be lost.)"""
    if stdin:
        proc.stdin.write(stdin)
        proc.stdin.close()
    proc.wait(timeout=timeout)
    return proc.stdout.read(), proc.stderr.read()

def interrupted(script, stdin=None, args=(), wait_for="ready", delay=0.3):
    """Runs `script` (text) with gpy, sends SIGINT once it has printed
    `wait_for`, and returns the finished Run."""
    import signal
    import time
    with TempDir() as d:
        d.write("s.gpy", script)
        proc = subprocess.Popen([GPY, *args, "s.gpy"], cwd=d.path, stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        first = proc.stdout.readline()
        if wait_for not in first:
            proc.kill()
            raise Failure(f"the script did not start: {first!r} {proc.stderr.read()!r}")
        time.sleep(delay)
        proc.send_signal(signal.SIGINT)
        try:
            out, err = finish(proc, TIMEOUT, stdin)
        except subprocess.TimeoutExpired:
            proc.kill()
            raise Failure("gpy did not stop after SIGINT")

        class R:
            pass
        r = R()
        r.rc, r.out, r.err = proc.returncode, first + out, err
        return r


@test
def sigint_uncaught_is_keyboard_interrupt_and_exit_130():
    r = interrupted("print('ready', flush=True)\ntry:\n    while True:\n        pass\nfinally:\n    print('finally ran')\n")
    check_eq(r.rc, 130, f"exit code (stderr {r.err!r})")
    check("finally ran" in r.out, f"finally runs: {r.out!r}")
    check("KeyboardInterrupt" in r.err, f"traceback names KeyboardInterrupt: {r.err!r}")


@test
def sigint_caught_by_except():
    r = interrupted("print('ready', flush=True)\ntry:\n    while True:\n        pass\nexcept KeyboardInterrupt:\n    print('caught')\nprint('after')\n")
    check_eq(r.rc, 0, f"exit code (stderr {r.err!r})")
    check_eq(r.out, "ready\ncaught\nafter\n", "output")


@test
def sigint_during_sleep_and_array_loop():
    r = interrupted("import time\nprint('ready', flush=True)\ntry:\n    time.sleep(60)\nexcept KeyboardInterrupt:\n    print('woke')\n")
    check_eq((r.rc, r.out), (0, "ready\nwoke\n"), f"sleep is interrupted (stderr {r.err!r})")
    r = interrupted("import numpy as np\nx = np.ones(1000)\nprint('ready', flush=True)\ni = 0\n"
                    "try:\n    while True:\n        x = np.sqrt(x * 1.0001 + i)\n        i += 1\nexcept KeyboardInterrupt:\n    print('stopped', x.shape)\n",
                    args=("--backend", "cpu"))
    check_eq((r.rc, r.out), (0, "ready\nstopped (1000,)\n"), f"an array loop is interrupted (stderr {r.err!r})")


@test
def sigint_stops_a_long_cpu_kernel_inside():
    # One fused kernel of eight nested arctan2/sin/cos over 5*10^7 floats
    # runs ~6 s on two cores; Ctrl-C 1.5 s in must stop it inside (the pool
    # polls the flag between ranges), not after it, and leave arrays usable.
    import time
    # One small round first, so the kernel's compile (which Ctrl-C cannot cut) is done before 'ready'.
    script = ("import numpy as np\nx = np.ones(5 * 10**7, dtype=np.float32) * np.float32(0.5)\n"
              "y = x[:1000]\nfor k in range(8):\n    y = np.arctan2(np.sin(y), np.cos(y) + np.float32(1.5))\nfloat(y.sum())\n"
              "print('ready', flush=True)\n"
              "try:\n    while True:\n        y = x\n        for k in range(8):\n            y = np.arctan2(np.sin(y), np.cos(y) + np.float32(1.5))\n"
              "        s = float(y.sum())\nexcept KeyboardInterrupt:\n    print('caught', flush=True)\n"
              "print(np.arange(5).sum(), float(x[:10].sum()))\n")
    import signal
    with TempDir() as d:
        d.write("s.gpy", script)
        proc = subprocess.Popen([GPY, "--backend", "cpu", "s.gpy"], cwd=d.path, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        check_eq(proc.stdout.readline(), "ready\n", "started")
        time.sleep(1.5)
        t0 = time.time()
        proc.send_signal(signal.SIGINT)
        caught = proc.stdout.readline()
        latency = time.time() - t0
        out, err = finish(proc, TIMEOUT)
        check_eq((caught, out, proc.returncode), ("caught\n", "10 5.0\n", 0), f"interrupted and usable (stderr {err!r})")
        check(latency < 2.5, f"stopped inside the kernel: {latency:.2f} s after the signal (a kernel runs ~6 s)")


@test
def sigint_then_dash_i_reaches_the_repl():
    r = interrupted("x = 7\nprint('ready', flush=True)\nwhile True:\n    pass\n", stdin="print('repl sees', x)\n", args=("-i",))
    check("KeyboardInterrupt" in r.err, f"the interrupt is reported: {r.err!r}")
    check("repl sees 7" in r.out, f"the REPL runs with the script's state: {r.out!r}")


# ---- backends ----

@test
def backend_cpu():
    r = gpy("--backend", "cpu", "-c", "print('cpu ok')")
    check_eq(r.rc, 0, "exit code", r)
    check_eq(r.out, "cpu ok\n", "stdout", r)
    r = gpy("--backend", "cpu", "-v", "-c", "pass")
    check_eq(r.rc, 0, "exit code with -v", r)
    check("backend" in r.err, "-v says which backend runs", r)


@test
def backend_auto_and_cache_options():
    with TempDir() as d:
        r = gpy("--backend", "auto", "--cache-dir", os.path.join(d.path, "cache"),
                "--dump-kernels", os.path.join(d.path, "kernels"), "-c", "print('ok')")
        check_eq(r.rc, 0, "exit code", r)
        check_eq(r.out, "ok\n", "stdout", r)


@test
def backend_cuda_without_gpu():
    if have_gpu():
        return  # nvidia-smi works here: --backend cuda may legitimately succeed
    r = gpy("--backend", "cuda", "-c", "print('should not run')")
    check_eq(r.rc, 2, "exit code", r)
    check_eq(r.out, "", "the program does not run", r)
    check("cuda" in r.err.lower() and r.err.startswith("gpy: error:"), "a clear message", r)


@test
def backend_bogus():
    r = gpy("--backend", "bogus", "-c", "print(1)")
    check_eq(r.rc, 2, "exit code", r)
    check_eq(r.out, "", "nothing runs", r)
    check("bogus" in r.err, "the bad value is named", r)


# ---- diagnostics ----

@test
def traceback_format():
    with TempDir() as d:
        d.write("t.gpy", "def divide(a, b):\n    return a / b\n\nprint(divide(4, 2))\nprint(divide(1, 0))\n")
        r = gpy("t.gpy", cwd=d.path)
        check_eq(r.rc, 1, "exit code", r)
        check_eq(r.out, "2.0\n", "stdout", r)
        want = ("Traceback (most recent call last):\n"
                "  t.gpy:5:7 in <module>\n"
                "  t.gpy:2:12 in divide\n"
                "t.gpy:2:12: error: ZeroDivisionError: division by zero\n"
                "    return a / b\n"
                "           ^~~~~\n")
        check_eq(r.err, want, "traceback", r)


@test
def traceback_nested_calls_and_caret_width():
    with TempDir() as d:
        d.write("n.gpy", "def inner(d):\n    return d['missing']\n\ndef outer():\n    return inner({'k': 1})\n\nouter()\n")
        r = gpy("n.gpy", cwd=d.path)
        check_eq(r.rc, 1, "exit code", r)
        lines = r.err.splitlines()
        check_eq(lines[:4], ["Traceback (most recent call last):",
                             "  n.gpy:7:1 in <module>",
                             "  n.gpy:5:12 in outer",
                             "  n.gpy:2:12 in inner"], "frames", r)
        check_eq(lines[4], "n.gpy:2:12: error: KeyError: 'missing'", "header", r)
        check_eq(lines[5], "    return d['missing']", "source line", r)
        check_eq(lines[6], "           ^~~~~~~~~~~~", "caret under d['missing']", r)


@test
def colour_diagnostics():
    r = gpy("--color", "always", "-c", "1 / 0")
    check_eq(r.rc, 1, "exit code", r)
    check("\x1b[" in r.err, "ANSI colours with --color always", r)
    r = gpy("--color", "never", "-c", "1 / 0")
    check("\x1b[" not in r.err, "no colours with --color never", r)
    r = gpy("-c", "1 / 0")
    check("\x1b[" not in r.err, "no colours when stderr is not a terminal", r)


@test
def syntax_error_unclosed_bracket_at_end():
    with TempDir() as d:
        d.write("s.gpy", "total = 0\nx = (1,\n     2,\n")
        r = gpy("s.gpy", cwd=d.path)
        check_eq(r.rc, 2, "exit code", r)
        lines = r.err.splitlines()
        check(len(lines) >= 3, "header, source line and caret", r)
        check(lines[0].startswith("s.gpy:2:5: error: ") and "`(` was never closed" in lines[0], "header", r)
        check_eq(lines[1], "x = (1,", "source line", r)
        check_eq(lines[2], "    ^", "caret at the bracket", r)


@test
def syntax_error_note_points_at_open_bracket():
    with TempDir() as d:
        d.write("s.gpy", "x = [1, 2\ny = 3]\n")
        r = gpy("s.gpy", cwd=d.path)
        check_eq(r.rc, 2, "exit code", r)
        lines = r.err.splitlines()
        check(len(lines) == 6, "error (3 lines) and note (3 lines)", r)
        check(re.match(r"^s\.gpy:2:1: error: .*", lines[0]) is not None, "error header", r)
        check_eq(lines[1], "y = 3]", "error source line", r)
        check_eq(lines[2], "^", "error caret", r)
        check(re.match(r"^s\.gpy:1:5: note: ", lines[3]) is not None, "note header at the `[`", r)
        check_eq(lines[4], "x = [1, 2", "note source line", r)
        check_eq(lines[5], "    ^", "note caret", r)


@test
def syntax_error_mismatched_bracket_note():
    r = gpy("-c", "x = (1, 2]")
    check_eq(r.rc, 2, "exit code", r)
    lines = r.err.splitlines()
    check(lines[0].startswith("<string>:1:10: error: ") and "`]`" in lines[0], "error header", r)
    check_eq(lines[2], "         ^", "caret at `]`", r)
    check(any(l.startswith("<string>:1:5: note: ") for l in lines), "note at `(`", r)


@test
def syntax_error_indentation():
    r = gpy("-c", "if True:\nprint('x')")
    check_eq(r.rc, 2, "exit code", r)
    check(r.err.startswith("<string>:2:1: error: expected an indented block"), "header", r)


def main():
    global GPY, VERBOSE
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gpy", required=True, help="path to the gpy binary")
    ap.add_argument("-k", default="", help="only tests whose name contains this")
    ap.add_argument("-v", action="store_true", help="print each test's result")
    args = ap.parse_args()
    GPY = os.path.abspath(args.gpy)
    VERBOSE = args.v
    if not os.access(GPY, os.X_OK):
        print(f"gpy binary not found: {GPY}")
        print("0 passed, 1 failed")
        return 1
    passed = failed = 0
    for fn in TESTS:
        name = fn.__name__
        if args.k not in name:
            continue
        try:
            fn()
            passed += 1
            if VERBOSE:
                print(f"ok   {name}")
        except Failure as e:
            failed += 1
            print(f"FAIL {name}: {e}")
        except Exception:  # a bug in the test or a hung gpy
            failed += 1
            print(f"FAIL {name}: {traceback.format_exc()}")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
