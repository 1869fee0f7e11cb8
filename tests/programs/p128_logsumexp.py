import numpy as np

def logsumexp(a, axis=None):
    m = np.max(a, axis=axis, keepdims=True)
    out = m + np.log(np.sum(np.exp(a - m), axis=axis, keepdims=True))
    return np.squeeze(out, axis=axis) if axis is not None else out.item()

x = np.array([1000.0, 1000.5, 999.0])
with np.errstate(over="ignore"):
    print("naive", np.log(np.sum(np.exp(x))))
print("stable", logsumexp(x))
print(np.logaddexp.reduce(x))
m = np.array([[0.0, 1.0, 2.0], [-1000.0, -1000.0, -1000.0]])
print(logsumexp(m, axis=1))
logp = m - logsumexp(m, axis=1)[:, None]
print(np.round(np.exp(logp), 6))
print(np.round(np.exp(logp).sum(axis=1), 12))
print(np.log1p(np.exp(-np.array([0.0, 10.0, 50.0]))))
softplus = lambda z: np.maximum(z, 0) + np.log1p(np.exp(-np.abs(z)))
print(softplus(np.array([-100.0, -1.0, 0.0, 1.0, 100.0])))
print(np.expm1(np.array([1e-10, 1.0])), np.exp(1e-10) - 1)
print(np.logaddexp(-1000.0, -1000.0), np.logaddexp2(10.0, 10.0))
