import numpy as np

ny, nx = 11, 33
y, x = np.mgrid[0:ny, 0:nx]
sources = [(5.0, 8.0), (5.0, 24.0)]
wavelength = 4.0
k = 2 * np.pi / wavelength
field = np.zeros((ny, nx))
for sy, sx in sources:
    r = np.hypot(x - sx, y - sy)
    field += np.cos(k * r)
intensity = field**2
levels = " .:*#"
q = np.minimum((intensity / intensity.max() * len(levels)).astype(int), len(levels) - 1)
for row in q:
    print("".join(levels[v] for v in row))
print(intensity.shape, round(float(intensity.max()), 6), round(float(intensity.mean()), 6))
print(np.argwhere(intensity == intensity.max())[:3])
