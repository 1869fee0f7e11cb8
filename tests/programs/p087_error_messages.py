import numpy as np

def attempt(label, fn):
    try:
        r = fn()
        print(label, "ok", r)
    except Exception as e:
        print(label, type(e).__name__ + ":", e)

a = np.arange(6).reshape(2, 3)
attempt("index", lambda: a[2, 0])
attempt("index1d", lambda: np.arange(3)[5])
attempt("too many", lambda: a[0, 0, 0])
attempt("reshape", lambda: a.reshape(4, 2))
attempt("reshape2", lambda: a.reshape(5, -1))
attempt("matmul", lambda: a @ a)
attempt("concat", lambda: np.concatenate([a, np.ones((2, 2))], axis=0))
attempt("axis", lambda: a.sum(axis=2))
attempt("broadcast", lambda: a + np.ones(2))
attempt("solve", lambda: np.linalg.solve(np.zeros((2, 2)), np.ones(2)))
attempt("int of array", lambda: int(np.array([1, 2])))
attempt("float conv", lambda: float(np.array([2.5])))
attempt("dtype", lambda: np.dtype("float128x"))
attempt("bool", lambda: bool(np.array([1, 2])))
attempt("stack", lambda: np.stack([np.ones(2), np.ones(3)]))
attempt("argmax empty", lambda: np.argmax(np.array([])))
attempt("inv nonsquare", lambda: np.linalg.inv(np.ones((2, 3))))
attempt("bad astype", lambda: np.array([1, 2]).astype("int99"))
attempt("set shape", lambda: np.zeros(4).reshape(2, 2).T.view().reshape(-1, 3))
attempt("float index", lambda: np.arange(4)[1.0])
def assign():
    a[:, 0] = [1, 2, 3]

attempt("assign", assign)
