# generator.throw(type, value): a value that is an instance of the type is
# raised as it is, a tuple gives the arguments (CPython's normalization).
def gen():
    yield 1
class E(ValueError):
    pass
cases = [(ValueError, ValueError('x')), (ValueError, ('a', 'b')), (ValueError, 'a'), (ValueError, E('sub')), (E, ValueError('base')),
         (ValueError('inst'), 'v'), (ValueError, ()), (ValueError, None), (ValueError, [1, 2])]
for typ, val in cases:
    g = gen()
    next(g)
    try:
        g.throw(typ, val)
    except Exception as e:
        print(type(e).__name__, repr(e), e.args)
