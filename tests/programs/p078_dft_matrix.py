import numpy as np

N = 6
n = np.arange(N)
k = n.reshape(-1, 1)
W = np.exp(-2j * np.pi * k * n / N)
print(np.round(W[:3], 4))
x = np.array([1.0, 2.0, 0.0, -1.0, 0.5, 3.0])
X = W @ x
print(np.round(X, 6))
print(np.allclose(X, np.fft.fft(x)))
xr = (W.conj() @ X) / N
print(np.round(xr.real, 10), np.abs(xr.imag).max() < 1e-12)
print(np.allclose(W @ W.conj().T, N * np.eye(N)))
power = np.abs(X) ** 2 / N
print(np.round(power, 6))
print("Parseval:", np.isclose(np.sum(x**2), power.sum()))
print(np.round(np.angle(X[1:3]), 6))
