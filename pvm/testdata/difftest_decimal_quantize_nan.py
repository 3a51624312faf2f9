# Decimal.quantize with NaN and infinite operands (found by difftest).
from decimal import Decimal
vals = ['NaN', '-NaN', 'sNaN', 'Infinity', '-Infinity', '3.5', '-0', '1E+2', '0.001']
for a in vals:
    row = []
    for b in vals:
        try:
            row.append(str(Decimal(a).quantize(Decimal(b))))
        except Exception as e:
            row.append('!' + type(e).__name__)
    print(a, row)
