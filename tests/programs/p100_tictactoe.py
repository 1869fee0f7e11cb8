import numpy as np

def winner(b):
    lines = np.concatenate([b, b.T, [np.diag(b)], [np.diag(np.fliplr(b))]])
    s = lines.sum(axis=1)
    if (s == 3).any():
        return "X"
    if (s == -3).any():
        return "O"
    return "draw" if (b != 0).all() else None

boards = {
    "row": [[1, 1, 1], [0, -1, 0], [-1, 0, 0]],
    "col": [[-1, 1, 0], [-1, 1, 0], [-1, 0, 1]],
    "diag": [[1, -1, 0], [-1, 1, 0], [0, 0, 1]],
    "anti": [[0, 0, -1], [1, -1, 0], [-1, 1, 1]],
    "open": [[1, 0, 0], [0, -1, 0], [0, 0, 0]],
    "draw": [[1, -1, 1], [1, -1, -1], [-1, 1, 1]],
}
for name, rows in boards.items():
    b = np.array(rows)
    print(f"{name:5s} -> {winner(b)}")
b = np.array(boards["open"])
empty = np.argwhere(b == 0)
print(empty.tolist())
sym = {1: "X", -1: "O", 0: "."}
for r in b:
    print(" ".join(sym[int(v)] for v in r))
