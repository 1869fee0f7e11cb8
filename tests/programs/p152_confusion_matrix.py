import numpy as np

y_true = np.array([0, 1, 2, 2, 1, 0, 0, 2, 1, 1, 2, 0, 1, 2, 2])
y_pred = np.array([0, 2, 2, 2, 1, 0, 1, 2, 1, 0, 2, 0, 1, 1, 2])
k = 3
cm = np.zeros((k, k), dtype=int)
np.add.at(cm, (y_true, y_pred), 1)
print(cm)
cm2 = np.bincount(y_true * k + y_pred, minlength=k * k).reshape(k, k)
print(np.array_equal(cm, cm2))
tp = np.diag(cm)
precision = tp / cm.sum(axis=0)
recall = tp / cm.sum(axis=1)
f1 = 2 * precision * recall / (precision + recall)
print("accuracy %.4f" % (tp.sum() / cm.sum()))
for c in range(k):
    print(f"class {c}: precision={precision[c]:.3f} recall={recall[c]:.3f} f1={f1[c]:.3f}")
print("macro f1 %.4f" % f1.mean())
print("weighted f1 %.4f" % np.average(f1, weights=cm.sum(axis=1)))
norm = cm / cm.sum(axis=1, keepdims=True)
print(np.round(norm, 3))
