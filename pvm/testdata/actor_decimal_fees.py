# Money arithmetic with decimal: fees, splits and rounding.
from decimal import Decimal, ROUND_HALF_EVEN, ROUND_DOWN

CENT = Decimal("0.01")


def fee(amount, bps):
    return (amount * Decimal(bps) / Decimal(10000)).quantize(CENT, rounding=ROUND_HALF_EVEN)


def split(total, parts):
    share = (total / parts).quantize(CENT, rounding=ROUND_DOWN)
    shares = [share] * parts
    remainder = total - share * parts
    i = 0
    while remainder > 0:
        shares[i] += CENT
        remainder -= CENT
        i += 1
    return shares


for amt in ["100.00", "12.345", "0.05", "999999.99", "1.005"]:
    d = Decimal(amt)
    f = fee(d, 30)
    print(amt, "fee", f, "net", d - f)

print(split(Decimal("100.00"), 3))
print(split(Decimal("10.00"), 7), sum(split(Decimal("10.00"), 7)))
print(Decimal("0.1") + Decimal("0.2"), Decimal("0.1") + Decimal("0.2") == Decimal("0.3"))
print(Decimal("2.50").quantize(Decimal("1")), Decimal("3.50").quantize(Decimal("1")))
print(Decimal("1.10") * 3, Decimal("7") / Decimal("2"), Decimal("-7") // 2, Decimal("-7") % 2)
print(Decimal(5) > 4, Decimal("1.0") == 1, max(Decimal("1.5"), Decimal("1.25")))
print(repr(Decimal("12.300")), str(Decimal("12.300").normalize()), Decimal("1E+2"))
print(Decimal("123.456").quantize(Decimal("0.1")), int(Decimal("9.99")), float(Decimal("0.5")))
ledger = [Decimal("19.99"), Decimal("5.01"), Decimal("-3.50"), Decimal("0.125")]
print(sum(ledger), sum(ledger, Decimal(0)).quantize(CENT))
print(sorted(ledger), -ledger[0], abs(ledger[2]))
print(f"{Decimal('1234.5'):>12}", f"{Decimal('3.14159'):.2f}")
print(Decimal("10").sqrt() if hasattr(Decimal, "sqrt") else "no sqrt")
