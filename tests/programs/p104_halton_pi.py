import numpy as np

def van_der_corput(n, base):
    seq = np.zeros(n)
    for i in range(n):
        k, f, r = i + 1, 1.0, 0.0
        while k > 0:
            f /= base
            r += f * (k % base)
            k //= base
        seq[i] = r
    return seq

print(van_der_corput(8, 2))
print(np.round(van_der_corput(6, 3), 6))
for n in [100, 400, 1600]:
    x = van_der_corput(n, 2)
    y = van_der_corput(n, 3)
    inside = (x**2 + y**2 <= 1.0).sum()
    est = 4 * inside / n
    print(f"n={n:5d} inside={inside:5d} pi~{est:.5f} err={abs(est - np.pi):.5f}")
x = van_der_corput(500, 2)
y = van_der_corput(500, 5)
f = np.exp(-(x**2 + y**2))
print("integral estimate %.6f" % f.mean())
hist = np.histogram(x, bins=5, range=(0, 1))[0]
print(hist)
