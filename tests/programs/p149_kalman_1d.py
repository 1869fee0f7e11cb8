import numpy as np

true_pos = np.linspace(0, 10, 21)
noise = 0.5 * np.sin(np.arange(21) * 1.7) * np.cos(np.arange(21) * 0.3)
meas = true_pos + noise
F = np.array([[1.0, 0.5], [0.0, 1.0]])
H = np.array([[1.0, 0.0]])
Q = 0.01 * np.eye(2)
R = np.array([[0.25]])
x = np.array([0.0, 0.0])
P = np.eye(2)
est = []
for z in meas:
    x = F @ x
    P = F @ P @ F.T + Q
    y = z - H @ x
    S = H @ P @ H.T + R
    K = P @ H.T @ np.linalg.inv(S)
    x = x + (K @ y)
    P = (np.eye(2) - K @ H) @ P
    est.append(x.copy())
est = np.array(est)
print(np.round(est[::4], 4))
print("meas rmse %.4f" % np.sqrt(np.mean((meas - true_pos) ** 2)))
print("kf rmse   %.4f" % np.sqrt(np.mean((est[:, 0] - true_pos) ** 2)))
print("final velocity %.4f" % est[-1, 1])
print(np.round(P, 6))
print(np.round(K.ravel(), 6))
