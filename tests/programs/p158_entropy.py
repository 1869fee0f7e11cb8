import numpy as np

def entropy(p, base=2):
    p = np.asarray(p, dtype=float)
    p = p[p > 0]
    return -np.sum(p * np.log(p)) / np.log(base)

dists = {
    "fair coin": [0.5, 0.5],
    "biased": [0.9, 0.1],
    "fair die": np.ones(6) / 6,
    "certain": [1.0, 0.0, 0.0],
    "skewed": [0.5, 0.25, 0.125, 0.125],
}
for name, p in dists.items():
    print(f"{name:10s} H={entropy(p):.6f} bits")
p = np.array([0.4, 0.4, 0.2])
q = np.array([0.5, 0.3, 0.2])
kl = np.sum(p * np.log2(p / q))
print("KL(p||q) = %.6f" % kl)
m = (p + q) / 2
js = 0.5 * np.sum(p * np.log2(p / m)) + 0.5 * np.sum(q * np.log2(q / m))
print("JS = %.6f" % js)
text = "abracadabra"
codes = np.array([ord(c) for c in text])
_, counts = np.unique(codes, return_counts=True)
print(counts, "H=%.6f" % entropy(counts / counts.sum()))
joint = np.array([[0.25, 0.25], [0.0, 0.5]])
mi = entropy(joint.sum(1)) + entropy(joint.sum(0)) - entropy(joint.ravel())
print("mutual information %.6f" % mi)
print(np.log2(np.array([1, 2, 1024])), np.exp2(np.array([0.5, 10])))
