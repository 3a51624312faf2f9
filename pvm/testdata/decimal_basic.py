from decimal import Decimal, getcontext, InvalidOperation, DivisionByZero, ROUND_HALF_UP, ROUND_DOWN, ROUND_HALF_EVEN
import decimal

a, b = Decimal("1.1"), Decimal("2.2")
print(a + b, a - b, a * b, b / a, a + 1, 1 + a, 2 * b, b - 1, 10 - a)
print(repr(a + b), str(Decimal("1E+3")), Decimal("0.000001"), Decimal("1e-7"), Decimal("-0"), Decimal("123.4500"))
print(Decimal(1) / Decimal(3), Decimal(2) / Decimal(3), Decimal(10) / Decimal(4), Decimal(1) / Decimal(8), Decimal(100) / Decimal(10))
print(Decimal(7) // Decimal(2), Decimal(-7) // Decimal(2), Decimal(7) % Decimal(3), Decimal(-7) % Decimal(3), Decimal("7.5") % 2)
print(Decimal(2) ** 10, Decimal("1.1") ** 2, Decimal(2) ** -2, Decimal(4) ** Decimal("0.5"), Decimal(2).sqrt(), Decimal(16).sqrt())
print(-a, +a, abs(Decimal("-3.5")), Decimal(5), Decimal(-12345678901234567890123), Decimal(True), Decimal())
print(Decimal(0.1), Decimal(0.5), Decimal(-2.25), Decimal(1e20), Decimal(float("inf")))
print(Decimal("  3.14  "), Decimal("1_000.5"), Decimal("NaN"), Decimal("-Infinity"), Decimal("inf"), Decimal("sNaN"))
print(a < b, a <= b, a > b, a == Decimal("1.10"), a != b, Decimal(1) == 1, Decimal("1.0") == 1, Decimal(2) > 1, 3 > Decimal(2))
print(Decimal("0.5") == 0.5, Decimal("0.1") == 0.1, sorted([Decimal("3"), Decimal("1.5"), Decimal("-2")]), max(Decimal(1), Decimal(2)))
print(hash(Decimal(5)) == hash(5), hash(Decimal("1.5")) == hash(1.5), hash(Decimal("0.1")), hash(Decimal("-2.50")), hash(Decimal("1E+30")))
print(int(Decimal("3.99")), int(Decimal("-3.99")), float(Decimal("0.1")), float(Decimal("1e400")), bool(Decimal(0)), bool(Decimal("0.01")))
print(Decimal("3.14159").quantize(Decimal("0.01")), Decimal("2.675").quantize(Decimal("0.01")), Decimal("2.665").quantize(Decimal("0.01")))
print(Decimal("2.5").quantize(Decimal("1")), Decimal("3.5").quantize(Decimal(1)), Decimal("2.5").quantize(Decimal("1"), rounding=ROUND_HALF_UP))
print(Decimal("7.89").quantize(Decimal("0.1"), ROUND_DOWN), Decimal("1.2").quantize(Decimal("0.001")), Decimal("123").quantize(Decimal("1E+1")))
print(Decimal("2.5").to_integral_value(), Decimal("3.5").to_integral_value(), Decimal("-2.7").to_integral_value(), Decimal("1E+2").to_integral_value())
print(round(Decimal("2.5")), round(Decimal("3.5")), round(Decimal("2.675"), 2), round(Decimal("-0.5")), type(round(Decimal("1.5"))).__name__)
print(Decimal("100").normalize(), Decimal("1.500").normalize(), Decimal("123.456").adjusted(), Decimal("0.001").adjusted())
print(Decimal("-1.5").is_signed(), Decimal("NaN").is_nan(), Decimal(0).is_zero(), Decimal("inf").is_infinite(), Decimal(1).is_finite())
print(Decimal("1.5").copy_negate(), Decimal("-1.5").copy_abs(), Decimal(1).compare(Decimal(2)))
print(Decimal("1234567890.123456789012345678901234567890"), Decimal("1234567890.123456789012345678901234567890") + 0)
print(Decimal("0.1") + Decimal("0.2") == Decimal("0.3"), sum([Decimal("0.1")] * 10), Decimal(1) / 7 * 7)
ctx = getcontext()
print(ctx.prec, ctx.rounding, ctx.Emax, ctx.Emin, ctx.rounding == ROUND_HALF_EVEN)
for f in [lambda: Decimal(1) / Decimal(0), lambda: Decimal(0) / Decimal(0), lambda: Decimal("abc"), lambda: Decimal(-1).sqrt(),
          lambda: Decimal(1) // 0, lambda: Decimal(5) % 0, lambda: Decimal("NaN") < 1, lambda: Decimal("9e999999") * 10,
          lambda: Decimal([1]), lambda: int(Decimal("NaN")), lambda: int(Decimal("inf")),
          lambda: Decimal("1").quantize(Decimal("1e-30")), lambda: Decimal("1e30") // Decimal("0.1")]:
    try:
        print(f())
    except (decimal.DecimalException, TypeError, ValueError, OverflowError) as e:
        print(type(e).__name__, e, isinstance(e, ArithmeticError))
print(issubclass(DivisionByZero, ZeroDivisionError), issubclass(InvalidOperation, decimal.DecimalException), issubclass(decimal.DecimalException, ArithmeticError))
print(Decimal("NaN") == Decimal("NaN"), Decimal("NaN") != 1, {Decimal("1.0"): "a"}[Decimal(1)], Decimal(3) in {3})
