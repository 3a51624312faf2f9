# Decimal NaN payloads (the diagnostic digits after NaN/sNaN) and
# compare_signal, as CPython 3.11's decimal prints them.
from decimal import Decimal, InvalidOperation

for s in ["NaN123", "-NaN0123", "sNaN45", "NaN0", "nan7", "-snan", "NaN" + "1" * 28, "+NaN9"]:
    d = Decimal(s)
    print(repr(d), str(d), d.as_tuple(), d.is_nan(), d.is_snan())
for s in ["NaN" + "1" * 29, "NaN1.5", "NaNx", "sNaN-1"]:
    try:
        Decimal(s)
    except InvalidOperation as e:
        print("InvalidOperation", s[:6])
print(Decimal("NaN123") + 1, Decimal(1) + Decimal("NaN5"), Decimal("NaN5") + Decimal("NaN7"))
print(Decimal("NaN12").quantize(Decimal(1)), -Decimal("NaN3"), abs(Decimal("-NaN3")), Decimal("NaN3").copy_negate())
print(Decimal("NaN12").max(Decimal(1)), Decimal("NaN4").sqrt(), Decimal((0, (1, 2), "n")), Decimal((1, (0, 0, 3), "N")))
print(Decimal("NaN4").compare(Decimal(1)), Decimal("NaN3").to_eng_string(), "{}".format(Decimal("NaN3")))
print(Decimal("NaN3") == Decimal("NaN3"), Decimal("NaN3").compare_total(Decimal("NaN4")), Decimal("NaN3").copy_abs())

# compare_signal: compare, but any NaN operand signals InvalidOperation.
print(Decimal(1).compare_signal(Decimal(2)), Decimal(2).compare_signal(2), Decimal("3.0").compare_signal(Decimal(3)))
print(Decimal("-Infinity").compare_signal(Decimal(0)))
for a, b in [("NaN", "1"), ("1", "NaN2"), ("sNaN", "1")]:
    try:
        print(Decimal(a).compare_signal(Decimal(b)))
    except InvalidOperation:
        print("InvalidOperation", a, b)
big = Decimal("NaN1" + "2" * 40)
print(big, big + 1, -big, big.copy_negate(), big.copy_abs(), big.compare(1))
