# The optional context argument of Decimal methods: None or a context, else
# TypeError (found by difftest).
import decimal
D = decimal.Decimal
nullary = ('exp', 'ln', 'log10', 'logb', 'sqrt', 'to_eng_string', 'number_class', 'is_normal', 'is_subnormal')
for m in ['max', 'min', 'compare', 'copy_sign', 'same_quantum', 'compare_total', 'max_mag', 'compare_total_mag', 'min_mag'] + list(nullary):
    f = getattr(D('1'), m)
    args = () if m in nullary else (2,)
    for extra in [(5,), (None,), (decimal.getcontext(),), ('x',)]:
        try:
            print(m, f(*(args + extra)))
        except Exception as e:
            print(m, type(e).__name__, e)
    try:
        print(m, f(*args, context=decimal.getcontext()))
    except Exception as e:
        print(m, 'kw', type(e).__name__, e)
print(D('1.5').fma(2, 3, None), D('-3').compare_total(3, None))
