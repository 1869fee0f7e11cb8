import numpy as np

def step(cells, rule):
    table = np.array([(rule >> i) & 1 for i in range(8)], dtype=np.uint8)
    left = np.roll(cells, 1)
    right = np.roll(cells, -1)
    idx = (left << 2) | (cells << 1) | right
    return table[idx]

width = 31
for rule in (30, 90):
    cells = np.zeros(width, dtype=np.uint8)
    cells[width // 2] = 1
    history = [cells]
    for _ in range(12):
        cells = step(cells, rule)
        history.append(cells)
    H = np.array(history)
    print(f"rule {rule}: live cells per row {H.sum(axis=1).tolist()}")
    for row in H[:8]:
        print("".join(".#"[v] for v in row))
print(H.dtype, H.shape)
