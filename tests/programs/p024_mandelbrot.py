import numpy as np

def mandelbrot(h, w, maxit=20):
    y, x = np.ogrid[-1.4:1.4:h * 1j, -2:0.8:w * 1j]
    c = x + y * 1j
    z = c
    divtime = maxit + np.zeros(z.shape, dtype=int)
    for i in range(maxit):
        z = z**2 + c
        diverge = z * np.conj(z) > 2**2
        div_now = diverge & (divtime == maxit)
        divtime[div_now] = i
        z[diverge] = 2
    return divtime

m = mandelbrot(12, 30)
chars = " .:-=+*#%@"
for row in m:
    print("".join(chars[min(v, 19) // 2] for v in row))
print(m.shape, m.dtype, m.min(), m.max())
print(np.bincount(m.ravel())[:5])
