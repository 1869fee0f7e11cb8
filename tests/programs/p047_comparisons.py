import numpy as np

print(np.allclose([1e10, 1e-7], [1.00001e10, 1e-8]))
print(np.allclose([1e10, 1e-8], [1.00001e10, 1e-9]))
print(np.allclose([1.0, np.nan], [1.0, np.nan]), np.allclose([1.0, np.nan], [1.0, np.nan], equal_nan=True))
print(np.isclose([1e10, 1e-7], [1.00001e10, 1e-8]))
print(np.isclose([1e-8, 1e-7], [0.0, 0.0]), np.isclose([1e-100, 1e-7], [0.0, 0.0], atol=0.0))
print(np.isclose(0.1 + 0.2, 0.3), 0.1 + 0.2 == 0.3)
print(np.array_equal([1, 2], [1, 2]), np.array_equal([1, 2], [1, 2, 3]), np.array_equal([1, 2], [1, 4]))
print(np.array_equal(np.array([1, np.nan]), np.array([1, np.nan]), equal_nan=True))
print(np.array_equiv([1, 2], [[1, 2], [1, 2]]), np.array_equiv([1, 2], [[1, 2, 1, 2]]))
a = np.array([1, 5, 3])
b = np.array([2, 5, 1])
print(a == b, a != b, a < b, a >= b)
print(np.equal(a, b), np.greater(a, 2), np.less_equal(a, b))
print(np.maximum(a, b), np.minimum(a, b), np.fmin([1.0, np.nan], [np.nan, np.nan]))
print((a == b).any(), (a == b).all(), np.array_equal(a, a.copy()))
try:
    if a == b:
        pass
except ValueError as e:
    print("ValueError:", e)
print(np.testing.assert_allclose(a, a) is None)
try:
    np.testing.assert_array_equal(a, b)
except AssertionError:
    print("assert_array_equal raised")
print(np.sign(a - b), np.greater(np.array([[1], [3]]), np.array([2, 2])))
