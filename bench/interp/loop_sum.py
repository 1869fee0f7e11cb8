# Interpreter overhead: a tight for-loop over range() with integer arithmetic.
# Valid as gpy and as Python 3; the modulus keeps the sum inside 64 bits
# (gpy ints are 64-bit and raise on overflow).
total = 0
for i in range(10**7):
    total = (total + i * i) % 1000000007
print(total)
