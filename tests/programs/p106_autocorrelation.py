import numpy as np

t = np.arange(48)
season = np.sin(2 * np.pi * t / 12)
trend = 0.05 * t
wiggle = 0.3 * np.cos(2 * np.pi * t / 5)
x = season + trend + wiggle
print(np.round(x[:8], 4))
ema = np.empty_like(x)
alpha = 0.3
ema[0] = x[0]
for i in range(1, len(x)):
    ema[i] = alpha * x[i] + (1 - alpha) * ema[i - 1]
print(np.round(ema[-5:], 4))
detr = x - np.polyval(np.polyfit(t, x, 1), t)
xc = detr - detr.mean()
acf = np.correlate(xc, xc, mode="full")[len(xc) - 1:]
acf = acf / acf[0]
print(np.round(acf[:13], 4))
lag = np.argmax(acf[6:20]) + 6
print("dominant period", lag)
ma = np.convolve(x, np.ones(12) / 12, mode="valid")
print(len(ma), np.round(ma[:4], 4))
print(np.round(np.diff(ma)[:4], 6))
