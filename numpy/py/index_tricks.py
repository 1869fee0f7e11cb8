# What np.mgrid, np.ogrid, np.r_, np.c_, np.s_ and np.index_exp do with a
# key (the objects are native: numpy/index_tricks.cpp calls _index_trick).


def _index_trick(kind, key):
    if kind == "s_":
        return key
    if kind == "index_exp":
        return key if isinstance(key, tuple) else (key,)
    raise NotImplementedError("np." + kind + "[...] is not supported yet")
