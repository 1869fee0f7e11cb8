import numpy as np

# Examples from the NumPy broadcasting user guide.
a = np.array([1.0, 2.0, 3.0])
b = 2.0
print(a * b)

x = np.arange(4)
xx = x.reshape(4, 1)
y = np.ones(5)
z = np.ones((3, 4))
print(x.shape, y.shape, xx.shape, z.shape)
print((xx + y).shape)
print(xx + y)
print((x + z).shape)
print(x + z)

a = np.array([0.0, 10.0, 20.0, 30.0])
b = np.array([1.0, 2.0, 3.0])
print(a[:, np.newaxis] + b)

# Vector quantization example
observation = np.array([111.0, 188.0])
codes = np.array([[102.0, 203.0],
                  [132.0, 193.0],
                  [45.0, 155.0],
                  [57.0, 173.0]])
diff = codes - observation
dist = np.sqrt(np.sum(diff ** 2, axis=-1))
print(dist)
print("closest code:", np.argmin(dist))

# Broadcasting failure
try:
    np.array([1, 2, 3]) + np.array([1, 2])
except ValueError as e:
    print("ValueError:", e)

print(np.broadcast_shapes((1, 2), (3, 1), (3, 2)))
print(np.broadcast_to(np.array([1, 2, 3]), (2, 3)))
