# np.geterr/seterr/errstate and np.get_printoptions/printoptions as context managers.
import numpy as np
print(np.geterr())
old = np.seterr(all="ignore")
print(old, np.geterr())
np.seterr(**old)
with np.errstate(divide="ignore", invalid="raise"):
    print(np.geterr())
    r = np.array([1.0, 0.0]) / np.array([0.0, 1.0])
print(np.geterr(), r)
try:
    np.seterr(divide="bogus")
except ValueError as e:
    print(e)
try:
    np.errstate(bogus="ignore")
except TypeError as e:
    print(e)
print(np.get_printoptions())
with np.printoptions(precision=3, suppress=True):
    print(np.array([1.123456789, 1e-9]))
print(np.array([1.123456789, 1e-9]))
