import numpy as np

def my_func(a):
    return (a[0] + a[-1]) * 0.5

b = np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]])
print(np.apply_along_axis(my_func, 0, b))
print(np.apply_along_axis(my_func, 1, b))
print(np.apply_along_axis(sorted, 1, np.array([[8, 1, 7], [4, 3, 9]])))
print(np.apply_along_axis(np.diag, -1, np.array([[1, 2], [3, 4]])))
print(np.apply_over_axes(np.sum, np.arange(24).reshape(2, 3, 4), [0, 2]))

def clamp_sq(x, lim):
    return x * x if x < lim else lim

vf = np.vectorize(clamp_sq)
print(vf(np.arange(6), 10))
print(vf(np.array([[1.5, 4.0], [2.0, 0.5]]), 3.0))
vint = np.vectorize(lambda s: len(str(s)), otypes=[int])
print(vint(np.array([1, 22, 333])))
vpair = np.vectorize(lambda a, b: a if a > b else b)
print(vpair([1, 5, 3], [4, 2, 6]))
scores = np.array([55, 72, 88, 91, 60, 39])
grade = np.vectorize(lambda s: 4 if s >= 90 else 3 if s >= 80 else 2 if s >= 70 else 1 if s >= 50 else 0)
print(grade(scores))
print(np.array([my_func(row) for row in b]))
print(np.array(list(map(np.sum, b))))
