# np.poly1d's rules (numpy/lib/_polynomial_impl.py), called by the native
# type in numpy/poly1d.cpp: construction, repr/str, arithmetic, indexing.


def _poly1d_init(c_or_r, r):
    if r:
        c_or_r = poly(c_or_r)
    c_or_r = atleast_1d(c_or_r)
    if c_or_r.ndim > 1:
        raise ValueError("Polynomial must be 1d only.")
    c_or_r = trim_zeros(c_or_r, trim="f")
    if len(c_or_r) == 0:
        c_or_r = array([0], dtype=c_or_r.dtype)
    return c_or_r


def _poly1d_repr(p):
    return "poly1d(" + repr(p.coeffs)[6:-1] + ")"


def _poly1d_raise_power(astr, wrap=70):
    # "x**2" -> the exponent on a line above (NumPy's _raise_power).
    n = 0
    line1 = ""
    line2 = ""
    output = " "
    while True:
        start = astr.find("**", n)
        if start < 0:
            break
        end = start + 2
        while end < len(astr) and astr[end].isdigit():
            end += 1
        power = astr[start + 2:end]
        partstr = astr[n:start]
        n = end
        toadd2 = partstr + " " * (len(power) - 1)
        toadd1 = " " * (len(partstr) - 1) + power
        if len(line2) + len(toadd2) > wrap or len(line1) + len(toadd1) > wrap:
            output += line1 + "\n" + line2 + "\n "
            line1 = toadd1
            line2 = toadd2
        else:
            line2 += partstr + " " * (len(power) - 1)
            line1 += " " * (len(partstr) - 1) + power
    output += line1 + "\n" + line2
    return output + astr[n:]


def _poly1d_fmt_float(q):
    s = "%.4g" % q
    return s[:-5] if s.endswith(".0000") else s


def _poly1d_str(p):
    thestr = "0"
    var = p.variable
    coeffs = p.coeffs[logical_or.accumulate(p.coeffs != 0)]
    N = len(coeffs) - 1
    for k in range(len(coeffs)):
        coeff = coeffs[k]
        if not iscomplex(coeff):
            coefstr = _poly1d_fmt_float(real(coeff))
        elif real(coeff) == 0:
            coefstr = _poly1d_fmt_float(imag(coeff)) + "j"
        else:
            coefstr = "(" + _poly1d_fmt_float(real(coeff)) + " + " + _poly1d_fmt_float(imag(coeff)) + "j)"
        power = N - k
        if power == 0:
            if coefstr != "0":
                newstr = coefstr
            elif k == 0:
                newstr = "0"
            else:
                newstr = ""
        elif power == 1:
            if coefstr == "0":
                newstr = ""
            elif coefstr == "b":
                newstr = var
            else:
                newstr = coefstr + " " + var
        else:
            if coefstr == "0":
                newstr = ""
            elif coefstr == "b":
                newstr = var + "**" + str(power)
            else:
                newstr = coefstr + " " + var + "**" + str(power)
        if k > 0:
            if newstr != "":
                if newstr.startswith("-"):
                    thestr = thestr + " - " + newstr[1:]
                else:
                    thestr = thestr + " + " + newstr
        else:
            thestr = newstr
    return _poly1d_raise_power(thestr)


def _poly1d_binop(op, a, b):
    if op == "pow":
        if not isscalar(b) or int(b) != b or b < 0:
            raise ValueError("Power to non-negative integers only.")
        res = [1]
        for _ in range(int(b)):
            res = polymul(a.coeffs, res)
        return poly1d(res)
    if op == "mul":
        if isscalar(b):
            return poly1d(a.coeffs * b)
        if isscalar(a):
            return poly1d(b.coeffs * a)
        return poly1d(polymul(poly1d(a).coeffs, poly1d(b).coeffs))
    if op == "truediv":
        if isinstance(a, poly1d) and isscalar(b):
            return poly1d(a.coeffs / b)
        if isscalar(a):
            return poly1d(a / b.coeffs)
        q, r = polydiv(poly1d(a).coeffs, poly1d(b).coeffs)
        return poly1d(q), poly1d(r)
    a = poly1d(a)
    b = poly1d(b)
    if op == "add":
        return poly1d(polyadd(a.coeffs, b.coeffs))
    return poly1d(polysub(a.coeffs, b.coeffs))


def _poly1d_equal(a, b):
    if not isinstance(a, poly1d) or not isinstance(b, poly1d):
        return False
    if a.coeffs.shape != b.coeffs.shape:
        return False
    return (a.coeffs == b.coeffs).all()


def _poly1d_getitem(p, val):
    if val > p.order or val < 0:
        return p.coeffs.dtype.type(0)
    return p.coeffs[p.order - val]


def _poly1d_call(p, val):
    if isinstance(val, poly1d):
        raise NotImplementedError("poly1d composition (p(q) of two poly1d) is not supported")
    return polyval(p.coeffs, val)


def _poly1d_deriv(p, m=1):
    return poly1d(polyder(p.coeffs, m=m))


def _poly1d_integ(p, m=1, k=0):
    return poly1d(polyint(p.coeffs, m=m, k=k))
