import numpy as np

x = np.linspace(0, 4 * np.pi, 60)
y = np.sin(x) + 0.4 * np.sin(3.1 * x)
dy = np.diff(y)
peaks = np.flatnonzero((np.hstack([dy, 0]) < 0) & (np.hstack([0, dy]) > 0))
troughs = np.flatnonzero((np.hstack([dy, 0]) > 0) & (np.hstack([0, dy]) < 0))
print("peaks", peaks)
print("troughs", troughs)
print(np.round(y[peaks], 4))
prom = [y[p] - max(y[:p + 1].min(), y[p:].min()) for p in peaks]
print(np.round(prom, 4))
big = peaks[np.array(prom) > 1.0]
print("prominent peaks", big, np.round(x[big], 4))
sign_change = np.flatnonzero(np.diff(np.signbit(y)))
print("zero crossings", sign_change)
roots = x[sign_change] - y[sign_change] * (x[sign_change + 1] - x[sign_change]) / (y[sign_change + 1] - y[sign_change])
print(np.round(roots, 4))
print("local maxima count", len(peaks), "global max at", np.argmax(y), round(float(y.max()), 6))
