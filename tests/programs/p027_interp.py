import numpy as np

xp = [1, 2, 3]
fp = [3, 2, 0]
print(np.interp(2.5, xp, fp))
print(np.interp([0, 1, 1.5, 2.72, 3.14], xp, fp))
print(np.interp(3.14, xp, fp, right=-99.0))
print(np.interp(0.5, xp, fp, left=-1))

x = np.linspace(0, 2 * np.pi, 10)
y = np.sin(x)
xvals = np.linspace(0, 2 * np.pi, 7)
yinterp = np.interp(xvals, x, y)
print(np.round(yinterp, 6))
print(np.round(np.abs(yinterp - np.sin(xvals)).max(), 6))

x = [-180, -170, -185, 185, -10, -5, 0, 365]
xp = [190, -190, 350, -350]
fp = [5, 10, 3, 4]
print(np.interp(x, xp, fp, period=360))

# Table lookup: temperature vs density of water
temps = np.array([0.0, 10.0, 20.0, 30.0, 40.0])
density = np.array([999.84, 999.70, 998.21, 995.65, 992.22])
for t in [5.0, 15.5, 25.0, 37.0]:
    print(f"{t:5.1f} C -> {np.interp(t, temps, density):.3f} kg/m3")
r = np.interp(np.array([1.5, 2.5]), np.array([1.0, 2.0, 3.0]), np.array([1 + 1j, 2 - 1j, 0j]))
print(r)
print(type(np.interp(2.5, xp, fp)))
