import numpy as np

v = np.array([0.5, 1.25, 3.0, -2.125])
print(", ".join(f"{x:.2f}" for x in v))
print(" | ".join(str(x) for x in v))
print(" ".join(map(str, np.arange(5))))
print("[" + ", ".join("%6.3f" % x for x in v) + "]")
m = np.arange(6).reshape(2, 3) / 7
for row in m:
    print("\t".join(f"{x:.4f}" for x in row))
print(np.array2string(m, precision=3, separator=" ; "))
print(np.array2string(np.array([1.0, 100.0]), formatter={"float_kind": lambda x: "%.1e" % x}))
print(np.array_str(m, precision=2, suppress_small=True))
csv_line = ",".join(str(x) for x in np.round(v, 1))
print(csv_line)
parsed = np.array([float(s) for s in csv_line.split(",")])
print(parsed, parsed.dtype)
print(np.array([int(s) for s in "1 2 3".split()]))
s = "%d apples and %.1f%% of %s" % (np.int64(3), np.float64(12.5), np.float32(0.5))
print(s)
print("{:>8}|{:<8}|{:^8}".format(str(np.float64(1.5)), str(np.int8(3)), str(np.bool_(True))))
