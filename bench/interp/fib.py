# Interpreter overhead: recursive calls (about 630,000 of them).
# Valid as gpy and as Python 3.
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


print(fib(27))
