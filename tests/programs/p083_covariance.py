import numpy as np

x = np.array([[0, 2], [1, 1], [2, 0]]).T
print(x)
print(np.cov(x))
x1 = [-2.1, -1, 4.3]
y1 = [3, 1.1, 0.12]
X = np.stack((x1, y1), axis=0)
print(np.cov(X))
print(np.cov(x1, y1))
print(np.cov(x1))
print(np.cov(X, bias=True))
print(np.cov(X, ddof=0))
print(np.cov(X.T, rowvar=False))
print(np.cov(X, fweights=[1, 2, 1]))
print(np.cov(X, aweights=[0.5, 1.0, 2.0]))
print(np.corrcoef(x1, y1))
data = np.array([[1.0, 2.0, 3.0, 4.0, 5.0],
                 [2.0, 4.1, 6.2, 7.9, 10.1],
                 [5.0, 3.0, 4.0, 1.0, 2.0]])
print(np.round(np.corrcoef(data), 6))
C = np.cov(data)
std = np.sqrt(np.diag(C))
print(np.allclose(C / np.outer(std, std), np.corrcoef(data)))
print(np.cov(np.array([1.0, 2.0, 3.0]), dtype=np.float32).dtype)
