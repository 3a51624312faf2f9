# exp, ln, log10 and logb of the decimal module under the default context
# (28 digits, ROUND_HALF_EVEN): fixed cases, then 400 arguments from a
# linear congruential generator so CPython and the PVM see the same inputs.
from decimal import Decimal, InvalidOperation, DivisionByZero, Overflow


def show(name, x):
    try:
        r = getattr(x, name)()
        print(name, x, r)
    except (InvalidOperation, DivisionByZero, Overflow) as e:
        print(name, x, type(e).__name__)


fixed = ['0', '-0', '1', '1.000', '10', '100', '0.001', '1E+5', '2', '0.5', '-1', '-0.0001',
         'Infinity', '-Infinity', 'NaN', '2.302585092994045684017991455', '1E-30', '123456789012345678901234567890',
         '9.999999999999999999999999999', '1.000000000000000000000000001', '0.9999999999999999999999999999',
         '7', '1E+100', '1E-100', '-2.5', '50', '230', '-230', '1E-999', '0.1', '3.14159', '1E+1000']
for s in fixed:
    for name in ('exp', 'ln', 'log10', 'logb'):
        show(name, Decimal(s))

state = 12345


def rand(n):
    global state
    state = (state * 6364136223846793005 + 1442695040888963407) % (1 << 64)
    return (state >> 17) % n


for i in range(400):
    digits = rand(29) + 1
    coeff = rand(10 ** digits)
    exp = rand(61) - 30 - digits // 2
    sign = '-' if rand(4) == 0 else ''
    x = Decimal('%s%dE%d' % (sign, coeff, exp))
    for name in ('ln', 'log10', 'logb'):
        show(name, x)
    # exp of a value of moderate size, so most results are finite.
    y = Decimal('%s%dE%d' % (sign, coeff, -digits + rand(4)))
    show('exp', y)
