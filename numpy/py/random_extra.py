# np.random beyond its native draws (numpy/random.cpp, random_dists.cpp):
# multivariate_normal and Generator.permuted, built from the draws and
# np.linalg (the native methods call these with the generator first), and
# the legacy aliases random_integers, ranf and sample.
# (Python's abs, any and all are NumPy's here.)


def _random_multivariate_normal(gen, mean, cov, size=None, check_valid="warn", tol=1e-8, method="svd"):
    if method not in ("svd", "eigh", "cholesky"):
        raise ValueError("method must be one of {'eigh', 'svd', 'cholesky'}")
    if check_valid not in ("warn", "raise", "ignore"):
        raise ValueError("check_valid must equal 'warn', 'raise', or 'ignore'")
    mean = asarray(mean)
    cov = asarray(cov)
    if mean.ndim != 1:
        raise ValueError("mean must be 1 dimensional")
    if cov.ndim != 2 or cov.shape[0] != cov.shape[1]:
        raise ValueError("cov must be 2 dimensional and square")
    n = mean.shape[0]
    if n != cov.shape[0]:
        raise ValueError("mean and cov must have same length")
    if size is None:
        shape = ()
    elif isinstance(size, (int, integer)):
        shape = (int(size),)
    else:
        shape = tuple(size)
    x = gen.standard_normal(shape + (n,)).reshape(-1, n)
    cov = cov.astype(float64)
    # NumPy's factorisations: x @ factor has covariance factor.T @ factor = cov.
    psd = True
    if method == "cholesky":
        factor = linalg.cholesky(cov).T
    elif method == "eigh":
        s, u = linalg.eigh(cov)
        psd = not any(s < -tol)
        factor = (u * sqrt(abs(s))).T
    else:
        u, s, vh = linalg.svd(cov)
        psd = allclose(dot(vh.T * s, vh), cov, rtol=tol, atol=tol)
        factor = sqrt(s)[:, None] * vh
    if not psd and check_valid == "raise":
        raise ValueError("covariance is not symmetric positive-semidefinite.")
    return (x @ factor + mean).reshape(shape + (n,))


def _random_permuted(gen, x, axis=None, out=None):
    x = asarray(x)
    if axis is None:
        flat = x.reshape(-1)
        r = flat[gen.permutation(flat.shape[0])].reshape(x.shape)
    else:
        # Sorting random keys along the axis shuffles each slice independently.
        idx = argsort(gen.random(x.shape), axis=axis)
        r = take_along_axis(x, idx, axis)
    if out is None:
        return r
    if out.shape != x.shape:
        raise ValueError("out must have the same shape as x")
    out[...] = r
    return out


def _random_integers(low, high=None, size=None):
    if high is None:
        high = low
        low = 1
    return random.randint(low, high + 1, size)


random.random_integers = _random_integers
random.ranf = random.random_sample
random.sample = random.random_sample
