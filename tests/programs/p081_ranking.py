import numpy as np

scores = np.array([88, 92, 75, 92, 60, 88, 99])
names = ["ann", "bob", "cy", "dee", "ed", "flo", "gus"]
order = np.argsort(-scores, kind="stable")
print(order)
ranks = np.empty_like(order)
ranks[order] = np.arange(1, len(scores) + 1)
print(ranks)
print(np.argsort(np.argsort(scores, kind="stable"), kind="stable"))
for pos, i in enumerate(order[:3], 1):
    print(pos, names[i], scores[i])
u, inv, cnt = np.unique(scores, return_inverse=True, return_counts=True)
dense = len(u) - inv
print("dense rank", dense)
ages = np.array([30, 25, 30, 22, 25, 40, 30])
idx = np.lexsort((ages, -scores))
print([(names[i], int(scores[i]), int(ages[i])) for i in idx])
top = np.sort(scores)[::-1][:3]
print(top, np.partition(scores, -3)[-3:].min())
pct = np.array([np.mean(scores <= s) * 100 for s in scores])
print(np.round(pct, 1))
print(sorted(zip(scores.tolist(), names))[-2:])
print(np.searchsorted(np.sort(scores), [75, 90, 100]))
