# Found by the differential fuzzer (third campaign): a signaling NaN
# operand of scaleb, logb, fma, ln, sqrt, ... signals InvalidOperation, and
# every operation trims a NaN payload longer than the precision (28) to its
# low 28 digits without rounding it, as libmpdec does.
import decimal
from decimal import Decimal, InvalidOperation

long = Decimal("NaN" + "9" * 30)
print(long, long.fma(1, 2), Decimal(3).fma(long, 1), Decimal(3).fma(2, long))
print(long.scaleb(-2), long.scaleb(3), Decimal(1).scaleb(long))
print(long.ln(), long.sqrt(), long.logb(), long.exp(), long.normalize(), long.to_integral_value())
print(long.min(1), long.max_mag(1), Decimal(1).min(long), long.max(long))
print(long.copy_abs(), long.copy_sign(-1), long.canonical(), -long, +long, abs(long))
for expr in [
    lambda: Decimal("-sNaN").scaleb(4),
    lambda: Decimal("sNaN7").scaleb(-2),
    lambda: Decimal("sNaN7").logb(),
    lambda: Decimal("sNaN1").ln(),
    lambda: Decimal("sNaN1").sqrt(),
    lambda: Decimal("sNaN1").exp(),
    lambda: -Decimal("sNaN1"),
    lambda: Decimal(2).fma(Decimal("sNaN3"), 1),
    lambda: Decimal("NaN1").fma(1, Decimal("sNaN3")),
    lambda: Decimal(2).scaleb(Decimal("sNaN3")),
    lambda: Decimal("sNaN2").max(1),
    lambda: Decimal("Infinity").fma(0, Decimal("NaN5")),
    lambda: Decimal("Infinity").fma(0, 1),
    lambda: Decimal("sNaN1").fma(Decimal("NaN2"), 1),
    lambda: Decimal("NaN1").fma(Decimal("sNaN2"), 1),
]:
    try:
        print(expr())
    except InvalidOperation:
        print("InvalidOperation")
print(Decimal("sNaN5").copy_abs(), Decimal("sNaN5").copy_negate(), Decimal("NaN12").fma(Decimal("NaN3"), 1))
print(Decimal(3).fma(Decimal("NaN3"), Decimal("NaN4")), Decimal(3).fma(2, Decimal("NaN4")))
