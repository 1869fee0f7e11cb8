# Interpreter overhead: 3 * 10**6 calls of a small function with two or three
# arguments and a default. Valid as gpy and as Python 3.
def combine(a, b, scale=3):
    return (a * scale + b) % 1009


acc = 0
for i in range(10**6):
    acc = combine(acc, i)
    acc = combine(acc, i, 7)
    acc = combine(i, acc, 5)
print(acc)
