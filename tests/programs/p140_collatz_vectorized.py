import numpy as np

n = np.arange(1, 31)
x = n.copy()
steps = np.zeros_like(n)
peak = n.copy()
active = x != 1
while active.any():
    even = (x % 2 == 0) & active
    odd = (x % 2 == 1) & active
    x[even] //= 2
    x[odd] = 3 * x[odd] + 1
    steps[active] += 1
    peak = np.maximum(peak, x)
    active = x != 1
print(steps)
print(peak)
print("longest", n[np.argmax(steps)], steps.max())
print("highest peak", n[np.argmax(peak)], peak.max())
vals, cnt = np.unique(steps, return_counts=True)
print(dict(zip(vals.tolist(), cnt.tolist())))
print(np.corrcoef(n, steps)[0, 1].round(4))
print(steps.reshape(5, 6).sum(axis=1))
