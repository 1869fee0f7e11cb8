import numpy as np

t = np.arange(32) / 32
x = 0.9 * np.sin(2 * np.pi * 2 * t) + 0.05 * np.cos(2 * np.pi * 7 * t)
for bits in (2, 4, 8):
    levels = 2**bits
    step = 2.0 / levels
    q = np.clip(np.round(x / step) * step, -1, 1 - step)
    err = x - q
    snr = 10 * np.log10(np.sum(x**2) / np.sum(err**2))
    print(f"{bits} bits: levels={levels:3d} max err={np.abs(err).max():.5f} SNR={snr:6.2f} dB")
codes = np.digitize(x, np.linspace(-1, 1, 9)[1:-1])
print(codes)
print(np.bincount(codes, minlength=8))
as_u8 = np.round((x + 1) / 2 * 255).astype(np.uint8)
print(as_u8[:8], as_u8.dtype)
back = as_u8.astype(np.float64) / 255 * 2 - 1
print("u8 roundtrip max err %.6f" % np.abs(back - x).max())
i16 = (x * 32767).astype(np.int16)
print(i16[:6])
