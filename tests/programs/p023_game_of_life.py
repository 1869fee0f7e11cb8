import numpy as np

def life_step(Z):
    N = (Z[0:-2, 0:-2] + Z[0:-2, 1:-1] + Z[0:-2, 2:] +
         Z[1:-1, 0:-2] + Z[1:-1, 2:] +
         Z[2:, 0:-2] + Z[2:, 1:-1] + Z[2:, 2:])
    birth = (N == 3) & (Z[1:-1, 1:-1] == 0)
    survive = ((N == 2) | (N == 3)) & (Z[1:-1, 1:-1] == 1)
    Z[...] = 0
    Z[1:-1, 1:-1][birth | survive] = 1
    return Z

def show(Z):
    for row in Z:
        print("".join("#" if c else "." for c in row))

Z = np.zeros((8, 8), dtype=int)
# glider
Z[1, 2] = 1
Z[2, 3] = 1
Z[3, 1:4] = 1
show(Z)
for gen in range(4):
    Z = life_step(Z)
print("after 4 generations, population", Z.sum())
show(Z)
print(np.argwhere(Z))
