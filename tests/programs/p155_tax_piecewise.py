import numpy as np

brackets = np.array([0, 10000, 40000, 90000, np.inf])
rates = np.array([0.0, 0.1, 0.25, 0.4])
incomes = np.array([5000.0, 10000.0, 25000.0, 60000.0, 90000.0, 150000.0])

def tax(income):
    lo = brackets[:-1]
    hi = brackets[1:]
    taxable = np.clip(income[:, None] - lo, 0, hi - lo)
    return taxable @ rates

t = tax(incomes)
for inc, tx in zip(incomes, t):
    print(f"income {inc:9.0f}  tax {tx:9.2f}  effective {tx / inc:6.2%}")
marginal = rates[np.digitize(incomes, brackets[1:-1], right=True)]
print(marginal)
pw = np.piecewise(incomes, [incomes <= 10000, (incomes > 10000) & (incomes <= 40000), incomes > 40000],
                  [0.0, lambda x: (x - 10000) * 0.1, lambda x: 3000 + (np.minimum(x, 90000) - 40000) * 0.25 + np.maximum(x - 90000, 0) * 0.4])
print(pw)
print(np.allclose(pw, t))
