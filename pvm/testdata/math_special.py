import math

# The math functions CPython 3.11 has beyond C99's elementary ones. Values
# are printed rounded to 12 significant digits where CPython's own libm is
# not correctly rounded (cbrt, erf, erfc, gamma, lgamma differ from the
# exact result by an ulp or a few); exact ones are printed in full.
vals = [0.5, 1.0, 2.0, 3.5, -0.25, -2.5, 10.0, 1e-5, 30.0]
for name in ('erf', 'erfc', 'gamma', 'lgamma', 'cbrt'):
    f = getattr(math, name)
    print(name, ['%.12g' % f(x) for x in vals])
print([math.gamma(float(n)) for n in range(1, 24)])  # CPython: gamma(24.0) is an ulp below 23!
print(math.lgamma(1.0), math.lgamma(2.0), math.erf(0.0), math.erfc(0.0), math.erf(-0.0))
print(['%.12g' % math.cbrt(x) for x in (27.0, -8.0, 0.001, 1e-300)])  # glibc: cbrt(27) = 3.0000000000000004
print(math.exp2(10), math.exp2(-1), math.exp2(0.5), math.exp2(-1074), math.exp2(1023.5))
print(math.remainder(5.0, 2.0), math.remainder(7.0, 2.0), math.remainder(-5.0, 2.0), math.remainder(10, 3))
print(math.remainder(1e300, 3.0), math.remainder(-0.0, 1.0), math.remainder(3.0, math.inf), math.remainder(5e-324, 1e-323))
print(math.dist((0, 0), (3, 4)), math.dist([1.5, 2.5, -1], (4, 6, 2)), math.dist((), ()), math.dist([2], {5}))
print(math.dist((1e308, 0), (-1e308, 0)), math.dist((1, 2, 3, 4, 5), (5, 4, 3, 2, 1)))
print(math.erf(math.inf), math.erf(-math.inf), math.erfc(math.inf), math.erfc(-math.inf), math.erfc(30.0))
print(math.gamma(math.inf), math.lgamma(math.inf), math.lgamma(-math.inf), math.gamma(-200.5), math.gamma(-201.5))
print(math.isnan(math.gamma(math.nan)), math.isnan(math.erf(math.nan)), math.isnan(math.remainder(math.nan, 1)))


def err(f, *a):
    try:
        r = f(*a)
        print('no error', r)
    except Exception as e:
        print(type(e).__name__ + ':', e)


err(math.gamma, 0.0)
err(math.gamma, -0.0)
err(math.gamma, -3.0)
err(math.gamma, -math.inf)
err(math.gamma, 171.7)
err(math.gamma, 5e-324)
err(math.lgamma, 0.0)
err(math.lgamma, -2.0)
err(math.lgamma, 1e308)
err(math.exp2, 1024.0)
err(math.remainder, 1.0, 0.0)
err(math.remainder, math.inf, 1.0)
err(math.dist, (1, 2), (1,))
err(math.dist, (1, 'a'), (1, 2))
err(math.dist, 1, (1,))
err(math.cbrt, 'x')
err(math.erf)
print(sorted(n for n in dir(math) if not n.startswith('_')))
