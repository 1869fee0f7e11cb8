import numpy as np

img = np.array([
    [[255, 0, 0], [0, 255, 0], [0, 0, 255]],
    [[255, 255, 255], [0, 0, 0], [128, 128, 128]],
], dtype=np.uint8)
print(img.shape, img.dtype)
weights = np.array([0.299, 0.587, 0.114])
gray = img @ weights
print(np.round(gray, 3))
gray2 = np.tensordot(img, weights, axes=([2], [0]))
print(np.allclose(gray, gray2))
gray3 = np.einsum("ijk,k->ij", img, weights)
print(np.allclose(gray, gray3))
g8 = np.round(gray).astype(np.uint8)
print(g8)
print(img.mean(axis=(0, 1)))
print(img.max(axis=2))
chan_first = np.transpose(img, (2, 0, 1))
print(chan_first.shape, chan_first[0])
norm = (img / 255.0 - 0.5) / 0.5
print(norm[1])
stacked = np.stack([g8] * 3, axis=-1)
print(stacked.shape, stacked[0, 0])
print(img[..., ::-1][0])
print(np.moveaxis(img, -1, 0).reshape(3, -1).sum(axis=1))
