import numpy as np

with np.errstate(divide="ignore", invalid="ignore"):
    r = np.array([1.0, 0.0, -1.0]) / np.array([0.0, 0.0, 0.0])
print(r)
with np.errstate(over="ignore"):
    print(np.exp(np.array([10.0, 1000.0])))
    print(np.float32(3e38) * np.float32(10))
with np.errstate(all="raise"):
    try:
        np.array([1.0]) / 0.0
    except FloatingPointError as e:
        print("FloatingPointError:", e)
    try:
        np.sqrt(np.array([-1.0]))
    except FloatingPointError as e:
        print("FloatingPointError:", e)
old = np.seterr(all="ignore")
print(sorted(old.items()))
print(np.log(np.array([0.0, -1.0])))
np.seterr(**old)
print(sorted(np.geterr().items()))
with np.errstate(divide="ignore"):
    ratio = np.where(np.array([2.0, 0.0]) != 0, np.array([4.0, 1.0]) / np.array([2.0, 0.0]), 0.0)
print(ratio)
with np.errstate(invalid="ignore"):
    print(np.array([np.inf]) - np.array([np.inf]), np.array([0.0]) * np.inf)
print(np.divide(np.array([1.0, 2.0]), np.array([0.0, 4.0]), out=np.zeros(2), where=np.array([0.0, 4.0]) != 0))
