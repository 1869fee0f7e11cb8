# ndarray.flat (indexing, assignment, iteration, a.flat = v), shape/real/imag assignment, mT, shares_memory / may_share_memory.
import numpy as np
a = np.arange(12).reshape(3, 4)
print(a.flat[5], a.flat[[1, 7]], a.flat[2:5], len(a.flat), list(a.T.flat)[:5])
a.flat[3] = 100
a.T.flat[0:2] = -1
print(a)
a.flat = [7, 8]
print(a)
b = np.zeros((2, 3)); b.flat[::2] = 1; print(b, b.flat.base is b)
c = np.arange(6.0); c.shape = (2, 3); print(c, c.shape)
try:
    c.T.shape = (6,)
except AttributeError as e:
    print("AttributeError", e)
try:
    c.shape = (4, 2)
except ValueError as e:
    print(e)
z = np.array([1 + 2j, 3 - 4j]); z.real = [10, 20]; z.imag = 0; print(z)
r = np.array([1.5, 2.5]); r.real = 9; print(r)
try:
    r.imag = 1
except TypeError as e:
    print(e)
try:
    r.ndim = 3
except AttributeError as e:
    print(e)
m = np.arange(24).reshape(2, 3, 4)
print(m.mT.shape, m.mT[1, 2], np.shares_memory(m, m.mT), np.shares_memory(m[:, :, ::2], m[:, :, 1::2]), np.may_share_memory(m[:, :, ::2], m[:, :, 1::2]))
print(np.shares_memory(m, m.copy()), np.shares_memory(m[0], m[1]), np.may_share_memory(m[0], m[0, 1:]), np.shares_memory([1, 2], [1, 2]))
try:
    np.arange(3).mT
except ValueError as e:
    print(e)
print(np.array(a.flat), a.flat.copy())
