import numpy as np

X = np.array([[1.0, 2.0], [2.0, 1.0], [3.0, 4.0], [4.0, 3.0], [5.0, 5.0], [6.0, 7.0]])
y = X @ np.array([1.5, -0.5]) + 2.0
Xb = np.hstack([np.ones((len(X), 1)), X])
theta = np.zeros(3)
lr = 0.02
history = []
for epoch in range(2000):
    grad = 2 / len(y) * Xb.T @ (Xb @ theta - y)
    theta -= lr * grad
    if epoch % 400 == 0:
        loss = np.mean((Xb @ theta - y) ** 2)
        history.append(loss)
        print(f"epoch {epoch:4d} loss {loss:.6f} theta {np.round(theta, 4)}")
print(np.round(theta, 4))
exact = np.linalg.solve(Xb.T @ Xb, Xb.T @ y)
print(np.round(exact, 6))
print(np.all(np.diff(history) < 0))

def sigmoid(z):
    return 1 / (1 + np.exp(-z))

labels = (y > y.mean()).astype(float)
w = np.zeros(3)
for _ in range(500):
    p = sigmoid(Xb @ w)
    w -= 0.1 * Xb.T @ (p - labels) / len(labels)
print(np.round(w, 4))
print((sigmoid(Xb @ w) > 0.5).astype(int), labels.astype(int))
