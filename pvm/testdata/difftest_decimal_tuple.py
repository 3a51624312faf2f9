# Decimal((sign, digits, exponent)) and Decimal(x.as_tuple()) (found by difftest).
import decimal as d
for t in [(0, (1, 2), -1), [1, [3], 0], (0, (), 'n'), (0, (0,), 'F'), (2, (1,), 0),
          (0, (10,), 0), (0, (1,), 1.5), (0, (1,), 'x'), (0, '12', 0), (0, (1,)),
          (True, (1,), 0), (0, (0, 0, 1), 0), (0, (), 0), (1, (), 'F'), (0, [1], -2),
          (0, (True, 2), 3), (0, (1,), 10**30), (-1, (1,), 0), (0, (1, -1), 0)]:
    try:
        print(repr(d.Decimal(t)))
    except Exception as e:
        print(type(e).__name__, e)
for s in ['1.1', '-0', 'NaN', '-Infinity', '1E+2', '123.456', '1e-5', '0.000', '-7.50E+3']:
    t = d.Decimal(s).as_tuple()
    print(t, d.Decimal(t), d.Decimal(t) == d.Decimal(s) or s == 'NaN')
