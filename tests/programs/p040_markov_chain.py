import numpy as np

# Weather Markov chain: sunny, cloudy, rainy
states = ["sunny", "cloudy", "rainy"]
P = np.array([[0.7, 0.2, 0.1],
              [0.3, 0.4, 0.3],
              [0.2, 0.3, 0.5]])
print(P.sum(axis=1))
dist = np.array([1.0, 0.0, 0.0])
for day in range(1, 6):
    dist = dist @ P
    print(f"day {day}: " + " ".join(f"{s}={p:.4f}" for s, p in zip(states, dist)))

# Stationary distribution by power iteration
pi = np.ones(3) / 3
for it in range(200):
    new = pi @ P
    if np.abs(new - pi).max() < 1e-12:
        break
    pi = new
print("converged after", it, "iterations")
print(np.round(pi, 8))
# via eigen-decomposition of P^T (symmetric part not needed; use lstsq)
A = np.vstack([P.T - np.eye(3), np.ones(3)])
b = np.array([0.0, 0.0, 0.0, 1.0])
pi2 = np.linalg.lstsq(A, b, rcond=None)[0]
print(np.round(pi2, 8), np.allclose(pi, pi2))
P5 = np.linalg.matrix_power(P, 5)
print(np.round(P5, 4))
most_likely = {s: states[int(np.argmax(P[i]))] for i, s in enumerate(states)}
print(most_likely)
