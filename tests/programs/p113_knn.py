import numpy as np

train = np.array([[1.0, 1.0], [1.5, 2.0], [2.0, 1.5], [6.0, 6.0], [6.5, 7.0], [7.0, 6.5], [1.0, 6.0], [1.5, 7.0]])
labels = np.array([0, 0, 0, 1, 1, 1, 2, 2])
test = np.array([[1.2, 1.4], [6.2, 6.6], [1.3, 6.4], [4.0, 4.0], [4.0, 6.5]])

def knn_predict(train, labels, test, k=3):
    d = np.linalg.norm(test[:, None, :] - train[None, :, :], axis=-1)
    nearest = np.argsort(d, axis=1, kind="stable")[:, :k]
    votes = labels[nearest]
    pred = np.array([np.bincount(v, minlength=3).argmax() for v in votes])
    return pred, nearest, d

pred, nearest, d = knn_predict(train, labels, test)
print(nearest)
print(pred)
print(np.round(np.sort(d, axis=1)[:, :3], 4))
for k in (1, 3, 5):
    p, _, _ = knn_predict(train, labels, train, k)
    print(f"k={k} training accuracy {np.mean(p == labels):.3f}")
centroids = np.array([train[labels == c].mean(axis=0) for c in range(3)])
print(centroids)
nc = np.argmin(((test[:, None] - centroids[None]) ** 2).sum(-1), axis=1)
print(nc)
