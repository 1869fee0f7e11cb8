import numpy as np

X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]], dtype=float)
targets = {"AND": np.array([0, 0, 0, 1]), "OR": np.array([0, 1, 1, 1]), "NAND": np.array([1, 1, 1, 0])}
for name, t in targets.items():
    w = np.zeros(2)
    b = 0.0
    for epoch in range(20):
        errors = 0
        for xi, ti in zip(X, t):
            out = int(xi @ w + b > 0)
            upd = 0.1 * (ti - out)
            if upd != 0:
                w += upd * xi
                b += upd
                errors += 1
        if errors == 0:
            break
    pred = (X @ w + b > 0).astype(int)
    print(f"{name:4s} epochs={epoch + 1:2d} w={np.round(w, 2)} b={b:.2f} pred={pred}")
# XOR with a fixed 2-layer network
W1 = np.array([[20.0, -20.0], [20.0, -20.0]])
b1 = np.array([-10.0, 30.0])
W2 = np.array([20.0, 20.0])
b2 = -30.0
h = 1 / (1 + np.exp(-(X @ W1 + b1)))
o = 1 / (1 + np.exp(-(h @ W2 + b2)))
print(np.round(h, 4))
print(np.round(o, 4), (o > 0.5).astype(int))
