import math
import numpy as np

erf = np.vectorize(math.erf)

def cnd(d):
    return 0.5 * (1.0 + erf(d / math.sqrt(2.0)))

def black_scholes(S, K, T, r, sigma):
    d1 = (np.log(S / K) + (r + 0.5 * sigma**2) * T) / (sigma * np.sqrt(T))
    d2 = d1 - sigma * np.sqrt(T)
    call = S * cnd(d1) - K * np.exp(-r * T) * cnd(d2)
    put = K * np.exp(-r * T) * cnd(-d2) - S * cnd(-d1)
    return call, put

S = np.array([90.0, 100.0, 110.0, 120.0])
K = 100.0
call, put = black_scholes(S, K, 1.0, 0.05, 0.2)
print(np.round(call, 6))
print(np.round(put, 6))
parity = call - put - (S - K * np.exp(-0.05))
print(np.abs(parity).max() < 1e-10)
for s, c, p in zip(S, call, put):
    print(f"S={s:6.1f} call={c:8.4f} put={p:8.4f}")
vols = np.linspace(0.1, 0.5, 5)
c_v, _ = black_scholes(100.0, K, 1.0, 0.05, vols)
print(np.round(c_v, 4))
print(np.all(np.diff(c_v) > 0))
