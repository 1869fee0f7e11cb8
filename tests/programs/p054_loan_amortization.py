import numpy as np

principal = 25000.0
annual_rate = 0.06
years = 2
n = years * 12
r = annual_rate / 12
payment = principal * r / (1 - (1 + r) ** -n)
print(f"monthly payment: {payment:.2f}")

balance = np.empty(n + 1)
balance[0] = principal
interest = np.empty(n)
for k in range(n):
    interest[k] = balance[k] * r
    balance[k + 1] = balance[k] + interest[k] - payment
principal_paid = payment - interest
print("total interest: %.2f" % interest.sum())
print("final balance: %.6f" % abs(balance[-1]))
for k in [0, 1, 11, 12, 23]:
    print(f"month {k + 1:2d}: interest {interest[k]:8.2f} principal {principal_paid[k]:9.2f} balance {balance[k + 1]:10.2f}")
# closed form balance
k = np.arange(n + 1)
closed = principal * (1 + r) ** k - payment * ((1 + r) ** k - 1) / r
print(np.allclose(closed, balance))
yearly = interest.reshape(years, 12).sum(axis=1)
print(np.round(yearly, 2))
cum = np.cumsum(principal_paid)
half = np.searchsorted(cum, principal / 2)
print("half paid off after month", half + 1)
