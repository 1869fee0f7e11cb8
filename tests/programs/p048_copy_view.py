import numpy as np

a = np.arange(6)
v = a[1:4]
c = a[1:4].copy()
v[0] = 100
c[1] = -5
print(a, v, c)
print(v.base is a, c.base is None)
r = a.reshape(2, 3)
r[1, 2] = 55
print(a)
print(r.base is a)
f = a[[0, 1]]
f[0] = 9
print(a[0])
print(a.flags["C_CONTIGUOUS"], a[::2].flags["C_CONTIGUOUS"])
m = np.arange(12).reshape(3, 4)
print(m.T.flags["F_CONTIGUOUS"], m.T.flags["C_CONTIGUOUS"])
print(m.strides, m.T.strides, m[:, ::2].strides, m.itemsize, m.nbytes)
b = np.ascontiguousarray(m.T)
print(b.flags["C_CONTIGUOUS"], b.strides)
fo = np.asfortranarray(m)
print(fo.strides, np.isfortran(fo))
x = np.array([1, 2, 3])
y = np.asarray(x)
z = np.array(x)
print(y is x, z is x)
x[0] = 10
print(y[0], z[0])
w = x.view()
w.shape = (3, 1)
print(x.shape, w.shape)
print(np.may_share_memory(x, w), np.may_share_memory(x, z))
d = np.copy(m)
d += 1
print(m[0], d[0])
m2 = m
m2 *= 2
print(m[0])
