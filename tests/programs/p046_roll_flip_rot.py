import numpy as np

x = np.arange(10)
print(np.roll(x, 2), np.roll(x, -2))
x2 = np.reshape(x, (2, 5))
print(np.roll(x2, 1))
print(np.roll(x2, 1, axis=0))
print(np.roll(x2, -1, axis=1))
print(np.roll(x2, (1, 1), axis=(1, 0)))
A = np.arange(8).reshape((2, 2, 2))
print(np.flip(A, 0))
print(np.flip(A))
print(np.flip(A, (0, 2)))
m = np.array([[1, 2], [3, 4]])
print(np.rot90(m))
print(np.rot90(m, 2))
print(np.rot90(m, -1))
print(np.rot90(np.arange(6).reshape(2, 3), axes=(1, 0)))
print(np.fliplr(m), np.flipud(m))
board = np.zeros((3, 3), dtype=int)
board[0, :2] = 1
shapes = [np.rot90(board, k) for k in range(4)]
for k, s in enumerate(shapes):
    print(k, s.ravel())
sig = np.array([1.0, 2.0, 3.0, 4.0])
print(np.roll(sig, 1) - sig)
