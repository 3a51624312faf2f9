"""Writes special_cpython.txt: CPython 3.11's math.cbrt, exp2, remainder,
erf, erfc, gamma and lgamma on special and random arguments, beside the
correctly rounded result computed with mpmath at 600 bits.

Run from this directory: python3 gen_special.py > special_cpython.txt
Each line: name arg1 [arg2] cpython correct, as hex bit patterns, or an
error name in both result columns.
"""
import math
import random
import struct
from fractions import Fraction

import mpmath

mpmath.mp.prec = 600


def bits(x):
    return '%016x' % struct.unpack('<Q', struct.pack('<d', x))[0]


def rounded(v):
    """The binary64 nearest to the mpf v (ties to even, subnormals and
    overflow as IEEE)."""
    if isinstance(v, Fraction):
        return float(v)
    if mpmath.isnan(v):
        return float('nan')
    if mpmath.isinf(v):
        return float(v)
    if v == 0:
        return float(v) if not isinstance(v, Fraction) else 0.0
    m = mpmath.mag(v)
    if m < -1100:
        return math.copysign(0.0, v)
    if m > 1100:
        return math.copysign(math.inf, v)
    sign, man, exp, _ = mpmath.mpf(v)._mpf_
    fr = Fraction(-man if sign else man) * (Fraction(2) ** exp)
    try:
        return float(fr)  # correctly rounded in CPython
    except OverflowError:
        return math.copysign(math.inf, fr)


rnd = random.Random(20261126)

specials = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, 3.0, 10.0, 1e-300, 5e-324, 1e-10, 1e300,
            1.7976931348623157e308, -1.7976931348623157e308, math.pi, math.e, 100.0, 171.5, 171.7,
            -171.5, -2.5, -3.0, 27.0, 28.0, 30.0, -10.0, 6.0, 5.0, 4.9,
            float('inf'), float('-inf'), float('nan')]


def sample(lo, hi, n):
    return [lo + (hi - lo) * rnd.random() for _ in range(n)]


def tiny(n):
    return [rnd.uniform(-1, 1) * 10.0 ** rnd.randint(-300, -1) for _ in range(n)]


def mp_gamma(x):
    if x <= 0 and x == int(x):
        return None
    return mpmath.gamma(mpmath.mpf(x))


def mp_lgamma(x):
    if x <= 0 and x == int(x):
        return None
    return mpmath.log(abs(mpmath.gamma(mpmath.mpf(x)))) if abs(x) < 1e5 else mpmath.loggamma(mpmath.mpf(x)).real


def mp_cbrt(x):
    return mpmath.cbrt(mpmath.mpf(x)) if x >= 0 else -mpmath.cbrt(-mpmath.mpf(x))


unary = {
    'cbrt': (math.cbrt, mp_cbrt, sample(-1e6, 1e6, 300) + [x ** 3 for x in range(-20, 21)]),
    'exp2': (math.exp2, lambda x: mpmath.power(2, mpmath.mpf(x)), sample(-1080, 1030, 300) + [float(i) for i in range(-5, 6)]),
    'erf': (math.erf, lambda x: mpmath.erf(mpmath.mpf(x)), sample(-7, 7, 400) + sample(-1, 1, 100)),
    'erfc': (math.erfc, lambda x: mpmath.erfc(mpmath.mpf(x)), sample(-7, 28, 400) + sample(-1, 1, 100) + sample(20, 27.3, 50)),
    'gamma': (math.gamma, mp_gamma, sample(-180, 172, 400) + sample(0, 5, 100) + [float(i) for i in range(1, 40)] + [i + 0.5 for i in range(-12, 20)]),
    'lgamma': (math.lgamma, mp_lgamma, sample(-180, 180, 300) + sample(0, 5, 100) + sample(-5, 0, 100) + [1e10, 1e100, 1e305, 3e305, 1.0000000000000002, 0.9999999999999999, 1.9999999999999998, 2.0000000000000004, -2.4570247382208006, -2.4570247382208005]),
}


def emit(name, args, f, g):
    try:
        r = bits(f(*args))
    except ValueError:
        r = 'ValueError'
    except OverflowError:
        r = 'OverflowError'
    if r.endswith('Error'):
        c = r
    elif any(math.isnan(a) for a in args) or any(math.isinf(a) for a in args) or (f(*args) == 0 and abs(args[0]) > 100) or math.isinf(f(*args)):
        c = r  # special values: C99 Annex F decides, not a rounding
    else:
        v = g(*args)
        c = bits(rounded(v)) if v is not None else 'ValueError'
        if c in ('0000000000000000', '8000000000000000') and r in ('0000000000000000', '8000000000000000'):
            c = r  # mpmath has no signed zero: the sign is C99's rule
    print(name, ' '.join(bits(a) for a in args), r, c)


for name, (f, g, extra) in unary.items():
    for x in specials + tiny(20) + extra:
        emit(name, (x,), f, g)


def mp_rem(x, y):
    # exact: remainder is always representable
    fx, fy = Fraction(x), Fraction(y)
    q = fx / fy
    n = round(q)  # Python rounds half to even
    r = fx - n * fy
    # A zero remainder has the sign of x (exact; mpmath is not needed).
    return r if r != 0 else mpmath.mpf(math.copysign(0.0, x))


pairs = [(a, b) for a in specials for b in specials[:12] + [float('inf'), float('nan')]]
for _ in range(400):
    a = rnd.uniform(-1e6, 1e6) * 10.0 ** rnd.randint(-20, 20)
    b = rnd.uniform(-100, 100) * 10.0 ** rnd.randint(-20, 20)
    pairs.append((a, b))
pairs += [(5.0, 2.0), (7.0, 2.0), (-5.0, 2.0), (1e308, 1e-308), (5e-324, 1e-323), (3.0, 2.0), (-3.0, 2.0)]
for a, b in pairs:
    emit('remainder', (a, b), math.remainder, mp_rem)
