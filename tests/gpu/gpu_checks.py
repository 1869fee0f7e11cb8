"""What the Python GPU tests here share: how many GPUs gpy sees, and a
tally of named checks ("ok NAME" / "FAIL NAME: detail", then a summary)."""
import subprocess


def gpu_count(gpy, env):
    """The CUDA devices `gpy` (GPY_BACKEND=cuda in `env`) can use; 0 when none,
    with gpy's own words on why printed."""
    probe = subprocess.run([gpy, "-c", "import numpy as np; print(np.cuda.device_count())"],
                           capture_output=True, text=True, env=env, timeout=120)
    n = int(probe.stdout.strip() or 0) if probe.returncode == 0 else 0
    if n == 0:
        print("no usable GPU:", probe.stdout, probe.stderr)
    return n


class Tally:
    def __init__(self):
        self.passed = self.failed = 0

    def check(self, name, ok, detail=""):
        print(("ok   " if ok else "FAIL ") + name + ("" if ok else ": " + detail))
        self.passed += bool(ok)
        self.failed += not ok

    def finish(self):
        """Prints "N passed, N failed"; the exit status: 1 on a failure."""
        print(f"{self.passed} passed, {self.failed} failed")
        return 1 if self.failed else 0
