import numpy as np

class RunningStats:
    def __init__(self, ncols):
        self.n = 0
        self.sum = np.zeros(ncols)
        self.sumsq = np.zeros(ncols)
        self.min = np.full(ncols, np.inf)
        self.max = np.full(ncols, -np.inf)

    def update(self, batch):
        batch = np.atleast_2d(batch)
        self.n += batch.shape[0]
        self.sum += batch.sum(axis=0)
        self.sumsq += (batch ** 2).sum(axis=0)
        self.min = np.minimum(self.min, batch.min(axis=0))
        self.max = np.maximum(self.max, batch.max(axis=0))

    @property
    def mean(self):
        return self.sum / self.n

    @property
    def std(self):
        return np.sqrt(self.sumsq / self.n - self.mean ** 2)

    def summary(self):
        return {"n": self.n, "mean": np.round(self.mean, 4).tolist(), "std": np.round(self.std, 4).tolist()}

rs = RunningStats(3)
data = np.arange(30, dtype=float).reshape(10, 3) ** 1.5
for start in range(0, 10, 4):
    rs.update(data[start:start + 4])
    print(rs.summary())
print(np.allclose(rs.mean, data.mean(axis=0)), np.allclose(rs.std, data.std(axis=0)))
print(rs.min, rs.max)
