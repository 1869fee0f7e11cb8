import numpy as np

def normalize(v):
    n = np.linalg.norm(v)
    return v if n == 0 else v / n

def moving_average(x, k):
    c = np.cumsum(np.insert(x, 0, 0.0))
    return (c[k:] - c[:-k]) / k

def rms(x):
    return np.sqrt(np.mean(np.square(x)))

cases = [
    ("normalize unit", lambda: normalize(np.array([3.0, 4.0])), np.array([0.6, 0.8])),
    ("normalize zero", lambda: normalize(np.zeros(2)), np.zeros(2)),
    ("moving average", lambda: moving_average(np.arange(6.0), 3), np.array([1.0, 2.0, 3.0, 4.0])),
    ("rms", lambda: rms(np.array([1.0, -1.0, 1.0, -1.0])), 1.0),
    ("rms sine", lambda: rms(np.sin(np.linspace(0, 2 * np.pi, 1001))), np.sqrt(0.5)),
    ("deliberate failure", lambda: rms(np.array([2.0])), 3.0),
]
results = {}
for name, fn, expected in cases:
    got = fn()
    ok = np.allclose(got, expected, atol=1e-3)
    results[name] = ok
    status = "PASS" if ok else "FAIL"
    print(f"[{status}] {name}: got {np.round(got, 4)}")
passed = sum(results.values())
print(f"{passed}/{len(results)} passed")
print([k for k, v in results.items() if not v])
print(type(passed), passed)
