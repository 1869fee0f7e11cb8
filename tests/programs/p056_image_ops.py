import numpy as np

img = np.array([[10, 10, 10, 200, 200, 200],
                [10, 10, 10, 200, 200, 200],
                [10, 10, 50, 200, 250, 200],
                [10, 10, 10, 200, 200, 200],
                [0, 0, 0, 0, 0, 255]], dtype=np.uint8)
print(img.dtype, img.shape, img.mean(), img.max())
f = img.astype(np.float32) / 255.0
print(f.dtype, np.round(f[2], 3))
p = np.pad(f, 1, mode="edge")
blur = sum(p[i:i + img.shape[0], j:j + img.shape[1]] for i in range(3) for j in range(3)) / 9
print(np.round(blur, 3))
gx = f[:, 2:] - f[:, :-2]
print(np.round(np.abs(gx).max(axis=0), 3))
binary = (img > 128).astype(np.uint8)
print(binary)
inv = 255 - img
print(inv[0], inv.dtype)
bright = np.clip(img.astype(np.int16) + 100, 0, 255).astype(np.uint8)
print(bright[2])
wrapped = img + np.uint8(100)
print(wrapped[2])
hist = np.bincount(img.ravel(), minlength=256)
print(np.nonzero(hist)[0], hist[np.nonzero(hist)[0]])
back = (blur * 255).round().astype(np.uint8)
print(back[2])
print(img[::2, ::2])
print(img.reshape(5, 3, 2).max(axis=2))
