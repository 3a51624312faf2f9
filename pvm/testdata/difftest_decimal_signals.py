# Found by pvm/difftest: decimal exceptions carry the list of signalled
# condition classes as their argument.
import decimal
D = decimal.Decimal
for f in [lambda: D('x'), lambda: D(1) / 0, lambda: D('inf') - D('inf'), lambda: D('7') // D('-0'), lambda: D(0) / D(0), lambda: D(10) // D('0.0000000000000000000000000001')]:
    try:
        f()
    except ArithmeticError as e:
        print(type(e).__name__, e.args, repr(e), str(e), isinstance(e.args[0][0], type))
