# math: integer functions exactly, float functions to printed precision.
import math

print(math.gcd(48, 180), math.gcd(0, 5), math.gcd(7, 13), math.lcm(4, 6), math.lcm(3, 5, 7))
print(math.isqrt(99), math.isqrt(10**20), math.factorial(20), math.comb(10, 3), math.perm(5, 2), math.prod([1, 2, 3, 4]))
print(math.floor(-2.5), math.ceil(-2.5), math.trunc(-2.7), math.floor(3), round(math.pi, 5), round(math.e, 5))
print(math.sqrt(16), math.sqrt(2), math.hypot(3, 4), math.fabs(-3), math.copysign(2, -0.0), math.fmod(7, 3))
print(math.isclose(0.1 + 0.2, 0.3), math.isclose(1, 1.1, rel_tol=0.2), math.isfinite(1e308), math.isinf(-math.inf), math.isnan(math.nan))
print(math.log(math.e), math.log(8, 2), math.log2(1024), math.log10(1000), math.exp(0), math.pow(2, 10))
print(f"{math.sin(math.pi / 6):.12f} {math.cos(0):.1f} {math.tan(math.pi / 4):.12f} {math.atan2(1, 1):.12f}")
print(math.modf(3.75), math.frexp(8.0), math.ldexp(0.5, 4), math.fsum([0.1] * 10), sum([0.1] * 10))
print(math.degrees(math.pi), math.radians(180) == math.pi, math.inf > 10**300, -math.inf < -1e308)
print(math.comb(52, 5), math.perm(10), math.factorial(0), math.isqrt(0), math.gcd())


def mean(xs):
    return math.fsum(xs) / len(xs)


def stdev(xs):
    m = mean(xs)
    return math.sqrt(math.fsum((x - m) ** 2 for x in xs) / (len(xs) - 1))


data = [2.5, 3.5, 1.0, 4.0, 4.5, 2.0]
print(f"{mean(data):.4f} {stdev(data):.4f}")
for bad in [lambda: math.sqrt(-1), lambda: math.log(-1), lambda: math.factorial(2.5), lambda: math.comb(-1, 2), lambda: math.isqrt(-1)]:
    try:
        bad()
    except (ValueError, TypeError) as e:
        print(type(e).__name__, e)
