import numpy as np

class Matrix:
    def __init__(self, data):
        self.a = np.array(data, dtype=float)

    @property
    def shape(self):
        return self.a.shape

    def __matmul__(self, other):
        return Matrix(self.a @ other.a)

    def __add__(self, other):
        if isinstance(other, Matrix):
            return Matrix(self.a + other.a)
        return Matrix(self.a + other)

    def __eq__(self, other):
        return np.array_equal(self.a, other.a)

    def T(self):
        return Matrix(self.a.T)

    def __repr__(self):
        rows = ", ".join("[" + ", ".join(f"{v:g}" for v in r) + "]" for r in self.a)
        return f"Matrix([{rows}])"

    @classmethod
    def identity(cls, n):
        return cls(np.eye(n))

m = Matrix([[1, 2], [3, 4]])
print(m, m.shape)
print(m @ Matrix.identity(2))
print(m + 1, m + m)
print(m.T() @ m)
print(m == Matrix([[1, 2], [3, 4]]), m == m.T())
ms = [Matrix(np.eye(2) * k) for k in range(1, 4)]
total = ms[0]
for x in ms[1:]:
    total = total + x
print(total)
