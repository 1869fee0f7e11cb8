import numpy as np

def softmax(z, axis=-1):
    z = z - z.max(axis=axis, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=axis, keepdims=True)

def one_hot(labels, n):
    out = np.zeros((labels.size, n))
    out[np.arange(labels.size), labels] = 1
    return out

logits = np.array([[2.0, 1.0, 0.1],
                   [0.5, 2.5, 0.3],
                   [1.0, 1.0, 1.0],
                   [-1.0, 0.0, 3.0]])
labels = np.array([0, 1, 2, 2])
p = softmax(logits)
print(np.round(p, 6))
print(p.sum(axis=1))
y = one_hot(labels, 3)
print(y)
ce = -np.sum(y * np.log(p)) / len(labels)
print("cross-entropy %.6f" % ce)
pred = p.argmax(axis=1)
print("pred", pred, "accuracy", (pred == labels).mean())
grad = (p - y) / len(labels)
print(np.round(grad, 6))
W = np.array([[0.1, -0.2, 0.3], [0.0, 0.5, -0.1]])
X = np.array([[1.0, 2.0], [0.5, -1.0], [0.0, 0.0], [3.0, 1.0]])
for epoch in range(3):
    p = softmax(X @ W)
    loss = -np.mean(np.log(p[np.arange(4), labels]))
    W -= 0.5 * X.T @ (p - one_hot(labels, 3)) / 4
    print(f"epoch {epoch} loss {loss:.6f}")
print(np.round(W, 6))
print(softmax(np.array([1000.0, 1000.0])))
