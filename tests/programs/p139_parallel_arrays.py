import numpy as np

cities = ["Oslo", "Lima", "Cairo", "Perth", "Quito", "Seoul"]
lat = np.array([59.91, -12.05, 30.04, -31.95, -0.18, 37.57])
lon = np.array([10.75, -77.04, 31.24, 115.86, -78.47, 126.98])
pop = np.array([0.71, 10.7, 21.3, 2.1, 2.8, 9.7])
south = lat < 0
print("southern:", [c for c, s in zip(cities, south) if s])
order = np.argsort(-pop)
for i in order:
    print(f"{cities[i]:6s} {pop[i]:5.2f}M lat {lat[i]:7.2f}")

def haversine(lat1, lon1, lat2, lon2):
    p1, p2 = np.radians(lat1), np.radians(lat2)
    dphi = p2 - p1
    dlmb = np.radians(lon2 - lon1)
    a = np.sin(dphi / 2) ** 2 + np.cos(p1) * np.cos(p2) * np.sin(dlmb / 2) ** 2
    return 2 * 6371.0 * np.arcsin(np.sqrt(a))

D = haversine(lat[:, None], lon[:, None], lat[None, :], lon[None, :])
print(np.round(D).astype(int))
i, j = np.unravel_index(np.argmax(D), D.shape)
print("farthest:", cities[i], cities[j], round(float(D[i, j]), 1))
near = np.argsort(D, axis=1)[:, 1]
print({cities[k]: cities[near[k]] for k in range(len(cities))})
print("weighted mean latitude %.3f" % np.average(lat, weights=pop))
