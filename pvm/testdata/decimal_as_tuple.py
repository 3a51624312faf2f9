from decimal import Decimal
t = Decimal('-1.250').as_tuple()
print(t, t.sign, t.digits, t.exponent, t[1], len(t), isinstance(t, tuple), type(t).__name__)
print(Decimal('NaN').as_tuple(), Decimal('-Infinity').as_tuple(), Decimal('0E-7').as_tuple())
s, d, e = Decimal('123E5').as_tuple()
print(s, d, e, t == (1, (1, 2, 5, 0), -3))
for x in ['0', '1', '-0.001', '123.4560', '1E+10', 'sNaN', 'Infinity']:
    print(x, Decimal(x).as_tuple())
print(Decimal(2).exp(), Decimal(2).ln(), Decimal(2).log10(), Decimal('12345.6').logb(), Decimal('0.0042').logb())
print(Decimal(10).ln() * Decimal(2).log10(), Decimal(1).exp().ln(), Decimal('1E+5').exp())
print(Decimal(-1).sqrt() if False else Decimal(2).sqrt(), Decimal('0.0001').sqrt())
