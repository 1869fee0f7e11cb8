import numpy as np

def expm_taylor(A, terms=30):
    result = np.eye(A.shape[0])
    term = np.eye(A.shape[0])
    for k in range(1, terms):
        term = term @ A / k
        result = result + term
    return result

def expm_sym(A):
    w, V = np.linalg.eigh(A)
    return (V * np.exp(w)) @ V.T

A = np.array([[0.0, 1.0], [-1.0, 0.0]])
E = expm_taylor(A)
print(np.round(E, 10))
print(np.round([[np.cos(1), np.sin(1)], [-np.sin(1), np.cos(1)]], 10))
S = np.array([[2.0, 1.0], [1.0, 2.0]])
print(np.round(expm_taylor(S), 8))
print(np.round(expm_sym(S), 8))
print(np.allclose(expm_taylor(S), expm_sym(S)))
N = np.array([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [0.0, 0.0, 0.0]])
print(expm_taylor(N))
t = np.linspace(0, 1, 5)
x0 = np.array([1.0, 0.0])
traj = np.array([expm_taylor(A * ti) @ x0 for ti in t])
print(np.round(traj, 6))
print(np.round(np.linalg.norm(traj, axis=1), 12))
