import numpy as np

x = np.arange(10)
print(x[2], x[-2])
print(x[1:7:2])
print(x[-3:3:-1])
print(x[5:])
print(x[::-1])

x2 = np.arange(12).reshape(3, 4)
print(x2)
print(x2[1, 3], x2[1, -1])
print(x2[0])
print(x2[:, 1])
print(x2[1:, ::2])
print(x2[..., 2])

y = np.arange(35).reshape(5, 7)
print(y[1:5:2, ::3])

# Views share memory
v = x2[0, :]
v[:] = -1
print(x2)
print(np.shares_memory(v, x2))

# newaxis
z = np.arange(3)
print(z[:, np.newaxis].shape, z[np.newaxis, :].shape)
print(z[:, None] * z[None, :])

a = np.zeros((2, 3, 4))
print(a[1, ...].shape, a[..., 1].shape, a[:, 0, :].shape)
