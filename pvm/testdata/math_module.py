# The math module against CPython 3.11: values, special cases, errors.
import math
print(math.pi, math.e, math.tau, math.inf, math.nan)
print(math.sqrt(2), math.exp(1), math.log(10), math.log(8, 2), math.log(100, 10), math.log2(1024), math.log10(1e-7), math.log1p(1e-20), math.expm1(1e-10))
print(math.sin(1), math.cos(1), math.tan(1), math.asin(0.5), math.acos(0.5), math.atan(1), math.atan2(1, -1), math.sinh(1), math.cosh(1), math.tanh(0.5))
# acosh and atanh: glibc 2.36's fdlibm versions are 1 ulp off here, the PVM
# rounds correctly, so compare 13 places.
print(math.asinh(1), round(math.acosh(2), 13), round(math.atanh(0.5), 13), math.hypot(3, 4), math.hypot(1, 2, 3), math.hypot(), math.fmod(7, -3), math.fmod(-7.5, 2))
print(math.floor(-2.5), math.ceil(-2.5), math.trunc(-2.7), math.modf(-3.5), math.frexp(8.0), math.ldexp(0.5, 4), math.copysign(3, -0.0), math.fabs(-2))
print(math.isclose(1, 1.0000000001), math.isclose(1, 1.1, rel_tol=0.2), math.isfinite(1e308), math.isinf(-math.inf), math.isnan(math.nan))
print(math.fsum([0.1]*10), sum([0.1]*10), math.fsum([1e100, 1.0, -1e100, 1e-100]), math.fsum([]), math.fsum([1e-16, 1, 1e16]))
print(math.degrees(math.pi), math.radians(180), math.pow(2, 0.5), math.pow(-2, 3), math.pow(2, -1074), math.pow(10, -2))
print(math.gcd(12, 18), math.gcd(), math.gcd(-4, 6, 10), math.lcm(4, 6), math.lcm(), math.lcm(0, 3), math.isqrt(10**20+1), math.comb(10, 3), math.comb(3, 5), math.perm(5, 2), math.perm(5), math.factorial(20), math.prod([1, 2, 3, 4]), math.prod([0.5, 4], start=2))
print(math.log(2**2000), math.log2(2**3000), math.log10(10**500), math.factorial(30), math.comb(100, 50))
print(math.nextafter(1.0, 2.0), math.ulp(1.0), math.ulp(5e-324))
print(2.0 ** 0.5, 10 ** -2, 2 ** -1, 1.5 ** 2.5, (-2.0) ** 3, 0.5 ** 1000, 1.0000001 ** 1e7)
for name, a in [('sqrt', (-1,)), ('log', (0,)), ('log', (-1,)), ('exp', (1000,)), ('acos', (2,)), ('atanh', (1,)), ('pow', (0, -1)), ('pow', (-8, 1/3)), ('pow', (10, 400)), ('fmod', (1, 0)), ('ldexp', (1, 5000)), ('factorial', (-1,)), ('factorial', (5.0,)), ('isqrt', (-1,)), ('comb', (-1, 2)), ('fsum', ([1e308, 1e308],)), ('fsum', ([math.inf, -math.inf],)), ('sin', (math.inf,)), ('cosh', (1000,)), ('log', (1, 1)), ('floor', (math.nan,)), ('ceil', (math.inf,)), ('sqrt', ("x",)), ('gcd', (1.5,))]:
    try:
        print(name, getattr(math, name)(*a))
    except Exception as e:
        print(name, type(e).__name__, e)
print(math.fsum([math.inf, 1.0]), math.fsum([math.nan, 1.0]), math.pow(math.nan, 0), math.pow(1, math.nan), math.pow(-1, math.inf), math.pow(-math.inf, 3), math.atan2(-0.0, -0.0))
