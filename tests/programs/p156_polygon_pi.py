import numpy as np

for n in [3, 4, 6, 12, 24, 96, 384]:
    theta = np.linspace(0, 2 * np.pi, n + 1)
    pts = np.column_stack([np.cos(theta), np.sin(theta)])
    inscribed = np.sum(np.linalg.norm(np.diff(pts, axis=0), axis=1)) / 2
    circumscribed = n * np.tan(np.pi / n)
    print(f"n={n:4d} lower={inscribed:.10f} upper={circumscribed:.10f} gap={circumscribed - inscribed:.2e}")
# Archimedes' doubling recurrence
a, b = 2 * np.sqrt(3), 3.0
for k in range(6):
    a = 2 * a * b / (a + b)
    b = np.sqrt(a * b)
    print(k, f"{b:.10f} < pi < {a:.10f}")
print(np.pi)
