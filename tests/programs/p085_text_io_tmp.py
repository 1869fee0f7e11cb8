import numpy as np

data = np.array([[1.5, 2.0, 3.25], [4.0, 5.5, 6.0], [7.125, 8.0, 9.0]])
path = "/tmp/gpy_programs_p085_data.csv"
np.savetxt(path, data, delimiter=",", fmt="%.4f", header="a,b,c", comments="# ")
back = np.loadtxt(path, delimiter=",")
print(back)
print(np.array_equal(back, data))
cols = np.loadtxt(path, delimiter=",", usecols=(0, 2), unpack=True)
print(cols)
np.savetxt(path, np.arange(6).reshape(2, 3), fmt="%d")
print(np.loadtxt(path, dtype=int))
npy = "/tmp/gpy_programs_p085_arr.npy"
np.save(npy, data)
loaded = np.load(npy)
print(loaded.dtype, loaded.shape, np.array_equal(loaded, data))
npz = "/tmp/gpy_programs_p085_arrs.npz"
np.savez(npz, x=np.arange(3), y=np.eye(2))
z = np.load(npz)
print(sorted(z.files), z["x"], z["y"])
print(np.genfromtxt(path, dtype=int))
