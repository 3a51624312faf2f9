# Float arithmetic through pvm/softfloat against CPython 3.11: rounding,
# subnormals, signed zeros, infinities, NaN rules, mixed int/float, divmod,
# pow, comparisons, hashing, conversions and round(). Not here: exact-tie
# integer powers such as 10.0 ** 23 (the PVM rounds the tie to even, glibc's
# pow does not always) and negative ** fractional (complex in CPython).
inf = float("inf")
nan = float("nan")
tiny = 5e-324
big = 1.7976931348623157e308

print(0.1 + 0.2, 0.1 * 3, 1 - 0.9, 1 / 3, 2 / 3, 1e308 * 10, -1e308 * 10)
print(tiny / 2, tiny * 0.5, tiny * 1.5, 2.2250738585072014e-308 / 2, 4.9e-324 + 4.9e-324)
print(big + big, big - big, -big - big, 1e-320 * 1e10, 1e16 + 1, 1e16 + 2, 1e16 + 3)
print(0.0 * -1, -0.0 + 0.0, -0.0 - 0.0, -0.0 * -0.0, 0.0 / -3, (-0.0) ** 2, (-0.0) ** 3)
print(inf + 1, inf - inf, inf * 0, inf / inf, -inf * -2, 1 / inf, -1 / inf)
print(nan == nan, nan != nan, nan < 1, nan > 1, nan <= nan)
print(1 == 1.0, 2**53 == 2.0**53, 2**53 + 1 == 2.0**53, 2**53 + 1 > 2.0**53, 10**400 > inf, -10**400 < -inf, 10**400 > 1e308)
print(0.5 < 1, 1 < 1.5, 3 >= 3.0, -0.0 == 0.0, -0.0 < 0.0, 2**63 == 9.223372036854776e18, 2**64 - 1 < 1.8446744073709552e19)
print(7.5 // 2, -7.5 // 2, 7.5 % 2, -7.5 % 2, 7.5 % -2, -7.5 % -2, 5 % 0.3, -5 % 0.3)
print(divmod(7.5, 2), divmod(-7.5, 2), divmod(1e300, 1e-300), divmod(-0.0, 1.0), divmod(0.0, -1.0))
print(1e308 % 3.0, 1e-310 % 1e-320, 0.7 // 0.1, 0.7 % 0.1, 1 // 0.1, 1 % 0.1, -inf % 3 if False else 0)
print(inf % 2 if False else 0, 5.0 % inf, -5.0 % inf, 5.0 // inf, -5.0 // inf)
print(2.0 ** 10, 2.0 ** -1074, 2.0 ** -1075, 2.0 ** 1023, 10.0 ** 22, 10.0 ** -5, 1.1 ** 2, 1.5 ** 3)
print(2 ** 0.5, 3 ** -2, 0.5 ** 0.5, 9 ** 0.5, 1.0001 ** 10000, 123.456 ** 1.5, 2 ** -1, (-2) ** -2, (-2.0) ** 2.0)
print(inf ** 0, nan ** 0, 1 ** nan, 1.0 ** inf, 0.5 ** inf, 2.0 ** -inf, (-inf) ** 3, (-inf) ** 2, (-inf) ** -3, 0.0 ** 5, (-0.0) ** 5, (-1.0) ** 1e300)
for a, b in [(0.0, -1), (1e200, 2.0), (1.0, 0.0)]:
    try:
        print(a ** b)
    except Exception as e:
        print(type(e).__name__, e)
for a, b in [(1.0, 0.0), (1.0, 0), (0.0, 0.0), (5, 0.0)]:
    for op in ("/", "//", "%"):
        try:
            if op == "/":
                print(a / b)
            elif op == "//":
                print(a // b)
            else:
                print(a % b)
        except ZeroDivisionError as e:
            print(op, e)
print(1 / 7, 10**20 / 3, 2**1000 / 3**600, (10**400) / (10**399), 1 / 2**1074, 1 / 2**1075, -1 / 2**1075, 0 / -5)
try:
    print(10**400 / 1)
except OverflowError as e:
    print("OverflowError", e)
print(float(10**20), float(2**53 + 1), float(2**53 + 3), float(-2**63), float(2**1023 * 1.5 // 1), float(True))
try:
    float(10**400)
except OverflowError as e:
    print("OverflowError", e)
print(int(1e20), int(-2.5), int(2.5), int(1e300) % 1000, int(-0.0), int(0.9999999999999999))
for v in (inf, -inf, nan):
    try:
        int(v)
    except (ValueError, OverflowError) as e:
        print(type(e).__name__, e)
print(hash(1.5), hash(-1.5), hash(0.1), hash(1e-300), hash(1e300), hash(2.0**70), hash(-2.0**70), hash(-1.0), hash(inf), hash(-inf), hash(0.0), hash(-0.0))
print(hash(5e-324), hash(1.7976931348623157e308), hash(float(2**61 - 1)), hash(float(2**61)), hash(3.0) == hash(3))
print(round(0.5), round(1.5), round(2.5), round(-0.5), round(-1.5), round(2.675, 2), round(0.125, 2), round(0.375, 2))
print(round(1234.5678, -2), round(-1234.5678, -1), round(5e-324, 400), round(1.5e308, -307), round(0.1, 0), round(-0.1, 0), round(123.456, 1))
print(round(2.5e15 + 0.5), round(1e300), round(1e16 + 2, -1), round(0.5, 0), round(-0.5, 0), round(inf, 2), round(nan, 2))
try:
    round(1.7976931348623157e308, -308)
except OverflowError as e:
    print("OverflowError", e)
print(abs(-0.0), -(0.0), +(-0.0), abs(-inf), -nan != -nan)
print(sum([0.1] * 10), sum([1e100, 1.0, -1e100]), max(1.0, 2, 1.5), min(-0.0, 0.0), sorted([3.5, -1, 2.25, 0.0, -0.0]))
print(float("1e-400"), float("-1e-400"), float("1e400"), float(" 12_345.6_7 "), float("+.5"), float("5."), float("-InFiNiTy"), float("nAn"))
print(float("2.2250738585072011e-308"), float("0.1000000000000000055511151231257827021181583404541015625"), float("1" * 400 + "e-400"))
for s in ("1__0", "_1", "1_", "1e", ".", "e5", "0x10", "1.5j", "in f", "", "1.2.3"):
    try:
        print(float(s))
    except ValueError as e:
        print("ValueError", e)
print((1.5).is_integer(), (2.0).is_integer(), (0.75).as_integer_ratio(), (-0.1).as_integer_ratio(), 1e22 == 10**22, 1e23 == 10**23)
print(3.0 * 1.1, 1.1 * 1.1 * 1.1, 0.1 * 0.1, 1e-5 * 1e-5, 4.35 * 100, 1.15 * 100, 0.57 * 100)
x = 1.0
for i in range(60):
    x = x * 1.5 + 0.1 - x / 7
print(x)
