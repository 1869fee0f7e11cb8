import numpy as np

alpha, beta, delta, gamma = 1.1, 0.4, 0.1, 0.4
dt = 0.01
steps = 1500
state = np.array([10.0, 10.0])
traj = np.empty((steps + 1, 2))
traj[0] = state
for i in range(steps):
    prey, pred = state
    d = np.array([alpha * prey - beta * prey * pred,
                  delta * prey * pred - gamma * pred])
    state = state + dt * d
    traj[i + 1] = state
print(traj.shape)
for i in range(0, steps + 1, 300):
    print(f"t={i * dt:5.2f} prey={traj[i, 0]:8.4f} predators={traj[i, 1]:8.4f}")
print("prey max %.4f at t=%.2f" % (traj[:, 0].max(), traj[:, 0].argmax() * dt))
print("pred min %.4f" % traj[:, 1].min())
V = delta * traj[:, 0] - gamma * np.log(traj[:, 0]) + beta * traj[:, 1] - alpha * np.log(traj[:, 1])
print("invariant drift %.6f" % (V[-1] - V[0]))
peaks = np.nonzero((traj[1:-1, 0] > traj[:-2, 0]) & (traj[1:-1, 0] > traj[2:, 0]))[0] + 1
print("prey peaks at steps", peaks)
print(np.round(traj.mean(axis=0), 4))
