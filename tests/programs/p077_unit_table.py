import numpy as np

celsius = np.arange(-40, 101, 20)
fahrenheit = celsius * 9 / 5 + 32
kelvin = celsius + 273.15
print(f"{'C':>6} {'F':>8} {'K':>8}")
for c, f, k in zip(celsius, fahrenheit, kelvin):
    print(f"{c:>6d} {f:>8.1f} {k:>8.2f}")
print(fahrenheit.dtype, celsius.dtype, kelvin.dtype)
same = celsius[np.isclose(celsius, fahrenheit)]
print("C == F at", same)
conversions = {
    "km->mi": 0.621371,
    "kg->lb": 2.20462,
    "l->gal": 0.264172,
}
values = np.array([1.0, 5.0, 42.0])
for name, factor in conversions.items():
    out = values * factor
    print(name, np.round(out, 3), out.sum().round(3))
table = np.column_stack([values * f for f in conversions.values()])
print(table.shape)
print(np.round(table, 2))
