import numpy as np

def day_of_week(y, m, d):
    y = np.asarray(y).copy()
    m = np.asarray(m).copy()
    shift = m < 3
    y[shift] -= 1
    m[shift] += 12
    K = y % 100
    J = y // 100
    h = (d + (13 * (m + 1)) // 5 + K + K // 4 + J // 4 + 5 * J) % 7
    return (h + 5) % 7  # 0 = Monday

names = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
years = np.array([2000, 1969, 2024, 1999, 2023])
months = np.array([1, 7, 2, 12, 10])
days = np.array([1, 20, 29, 31, 5])
dow = day_of_week(years, months, days)
for y, m, d, w in zip(years, months, days, dow):
    print(f"{y:04d}-{m:02d}-{d:02d} is a {names[w]}")
leap = lambda yr: (yr % 4 == 0) & ((yr % 100 != 0) | (yr % 400 == 0))
ys = np.arange(1896, 1912)
print(ys[leap(ys)])
dim = np.array([31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31])
doy = np.concatenate([[0], np.cumsum(dim)[:-1]]) + 1
print(doy)
print("day of year for Oct 5:", doy[9] + 4)
firsts = day_of_week(np.full(12, 2024), np.arange(1, 13), np.ones(12, dtype=int))
print(firsts, [names[i] for i in firsts[:3]])
