import numpy as np

R = 100.0
L = 0.1
C = 10e-6
f = np.array([50.0, 100.0, 159.15, 300.0, 1000.0])
w = 2 * np.pi * f
ZR = R + 0j
ZL = 1j * w * L
ZC = 1 / (1j * w * C)
Z = ZR + ZL + ZC
print(np.round(Z, 3))
mag = np.abs(Z)
phase = np.degrees(np.angle(Z))
for fi, m, p in zip(f, mag, phase):
    print(f"f={fi:8.2f} Hz |Z|={m:9.3f} ohm phase={p:7.2f} deg")
f0 = 1 / (2 * np.pi * np.sqrt(L * C))
print("resonance %.3f Hz" % f0)
V = 10.0
I = V / Z
print(np.round(np.abs(I), 6))
P = 0.5 * np.real(V * np.conj(I))
print(np.round(P, 6))
Zpar = 1 / (1 / ZL + 1 / ZC)
print(np.round(Zpar[:2], 3))
print(Z.dtype, np.round(Z[0].real, 6), type(Z[0]))
