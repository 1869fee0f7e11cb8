import numpy as np

def sieve(n):
    is_prime = np.ones(n + 1, dtype=bool)
    is_prime[:2] = False
    for i in range(2, int(n**0.5) + 1):
        if is_prime[i]:
            is_prime[i * i::i] = False
    return np.nonzero(is_prime)[0]

primes = sieve(100)
print(primes)
print(len(primes), primes.sum(), primes[-1])
gaps = np.diff(primes)
print("max gap", gaps.max(), "at", primes[np.argmax(gaps)])
print(np.bincount(gaps))
print(np.gcd(12, 20), np.gcd([12, 15, 21], 9), np.lcm(4, 6), np.lcm.reduce([2, 3, 4, 5]))
print(np.gcd.reduce([24, 36, 60]))
n = np.arange(1, 21)
divisors = (n[:, None] % n[None, :] == 0).sum(axis=1)
print(divisors)
perfect = [int(k) for k in n if np.sum(np.arange(1, k)[k % np.arange(1, k) == 0]) == k]
print(perfect)
fib = np.zeros(15, dtype=np.int64)
fib[:2] = 1
for i in range(2, 15):
    fib[i] = fib[i - 1] + fib[i - 2]
print(fib)
print(fib[1:] / fib[:-1])
collatz = lambda k: k // 2 if k % 2 == 0 else 3 * k + 1
lengths = []
for start in range(1, 11):
    k, steps = start, 0
    while k != 1:
        k, steps = collatz(k), steps + 1
    lengths.append(steps)
print(np.array(lengths), np.argmax(lengths) + 1)
