from decimal import Decimal, InvalidOperation

vals = ['0', '-0', '1', '-1.50', '1.5', '123.456', '1E+5', '1.00E-8', '0E-9', '-7E+3', '0.000001', '12345678901234567890123456789.5',
        'Infinity', '-Infinity', 'NaN', '-NaN']
D = [Decimal(v) for v in vals]


def show(label, f):
    try:
        r = f()
    except InvalidOperation as e:
        r = 'InvalidOperation'
    except (ValueError, OverflowError, TypeError) as e:
        r = '%s: %s' % (type(e).__name__, e)
    print(label, repr(r))


for x in D:
    print('--', x)
    show('eng', x.to_eng_string)
    show('class', x.number_class)
    show('normal', lambda: (x.is_normal(), x.is_subnormal(), x.is_canonical()))
    show('ratio', x.as_integer_ratio)
    show('conj', lambda: (x.conjugate(), x.canonical(), x.real, x.imag, x.radix()))
    show('sign', lambda: (x.copy_sign(Decimal(-1)), x.copy_sign(2)))
    for y in (Decimal('1.5'), Decimal('-1.5'), Decimal('1.50'), Decimal('NaN'), 3):
        show('mm %s' % y, lambda: (x.max(y), x.min(y), x.max_mag(y), x.min_mag(y)))
        show('total %s' % y, lambda: (x.compare_total(y), x.compare_total_mag(y), x.same_quantum(y)))
    show('scaleb', lambda: (x.scaleb(3), x.scaleb(-2), x.scaleb(Decimal('0'))))
    show('fma', lambda: (x.fma(2, 1), x.fma(Decimal('1E-30'), Decimal('1'))))
print(Decimal('1.1').fma(Decimal('1.1'), Decimal('-1.21')), Decimal(2).scaleb(Decimal('1.5')) if False else '')
print(Decimal('123456789012345678901234567.8').fma(3, Decimal('0.1')))
for e in ['1E+1', '1E+2', '1E+3', '12E+4', '1E-7', '12.3E-8', '0E+1', '0E+2', '0E-7', '0E-8', '-0E+4']:
    print(e, Decimal(e).to_eng_string(), str(Decimal(e)))
print(Decimal.from_float(0.1), Decimal.from_float(2), Decimal.from_float(-0.0), Decimal.from_float(float('inf')))
show('snan max', lambda: Decimal('sNaN').max(1))
show('scaleb bad', lambda: Decimal(1).scaleb(Decimal('0.5')))
