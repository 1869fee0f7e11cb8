import numpy as np
from numpy.polynomial import Polynomial, Chebyshev
from numpy.polynomial import polynomial as P

p = Polynomial([1, 2, 3])
print(p)
print(p(2.0), p(np.array([0.0, 1.0])))
print(p.deriv(), p.integ())
print((p * p).coef)
print(p.roots())
x = np.linspace(-1, 1, 9)
y = np.cos(np.pi * x)
fit = Polynomial.fit(x, y, 4)
print(np.round(fit.convert().coef, 6))
print(P.polyval(2.0, [1, 2, 3]), P.polyadd([1, 2], [3]), P.polymul([1, 1], [1, 1]))
print(np.round(P.polyfit(x, y, 2), 6))
c = Chebyshev([0, 0, 1])
print(c(np.array([-1.0, 0.0, 0.5, 1.0])))
print(np.polynomial.chebyshev.cheb2poly([0, 0, 1]))
print(np.round(np.polynomial.chebyshev.chebfit(x, y, 4), 6))
print(np.polynomial.legendre.legval(0.5, [0, 0, 1]))
print(np.polynomial.hermite.hermval(1.0, [1, 1]))
