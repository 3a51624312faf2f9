# format() and f-strings on Decimal: every presentation type CPython has.
from decimal import Decimal

values = ["0", "-0", "1", "1.5", "2.5", "-2.675", "1234567.891", "0.000012345", "1E+5", "123E-10",
          "99.995", "-0.0001", "1.000", "Infinity", "-Infinity", "NaN"]
specs = ["", "f", ".2f", ".0f", ">12", "<10.1f", "^12,.2f", "+.3f", " f", "012.2f", ",", "_.1f",
         "e", ".2e", ".0E", "g", ".3g", ".1G", "%", ".1%", "=+14,.3f", "*>15.4e", "z.1f", "#.0f"]
for v in values:
    d = Decimal(v)
    row = []
    for s in specs:
        try:
            row.append(format(d, s))
        except ValueError as e:
            row.append("ValueError")
    print(v, "|".join(row))

price, qty = Decimal("19.99"), 3
total = price * qty
print(f"{'item':<10}{'qty':>5}{'total':>12}")
print(f"{'widget':<10}{qty:>5}{total:>12.2f}")
print(f"{total:,.2f} {total:.1%} {total:e} {total!s:>10} {total!r}")
print("{:>10.3f}|{:<8}|{:^9.1f}".format(Decimal("3.14159"), Decimal("2.5"), Decimal("-7.25")))
print(format(Decimal("1234567.5"), ",.0f"), format(Decimal("0.5"), ".0f"), format(Decimal("1.5"), ".0f"))
