# PEP 572: an assignment expression in a comprehension binds in the
# containing scope (the function, not the module).
def f():
    z = None
    [z := i for i in range(3)]
    return z

print(f())
try:
    print(z)
except NameError as e:
    print('NameError', e)

def g(xs):
    if any((w := v) > 1 for v in xs):
        return w
    return None

print(g([0, 1, 5, 7]))
print(g([0, 1]) is None)
try:
    print(w)
except NameError as e:
    print('NameError', e)

def h():
    [last := i for i in range(4)]
    return last

print(h())

def nested():
    out = [[(t := a * b) for b in range(3)] for a in range(3)]
    return t, out

print(nested())

def closure():
    total = 0
    def add(xs):
        nonlocal total
        [total := total + x for x in xs]
    add([1, 2, 3])
    return total

print(closure())

def glob():
    global gz
    [gz := i for i in range(5)]

glob()
print(gz)

def inner_fn():
    def k():
        return [m := j for j in range(2)], m
    return k()

print(inner_fn())

# At module level the target is a global.
[mz := i * 2 for i in range(3)]
print(mz)

def setcomp():
    s = {(q := c) for c in 'abc'}
    d = {(r := c): 1 for c in 'xy'}
    return sorted(s), q, d, r

print(setcomp())

def unbound():
    [y for y in range(0)]
    if False:
        [uu := 1 for _ in range(1)]
    try:
        return uu
    except UnboundLocalError as e:
        return type(e).__name__

print(unbound())

lam = lambda xs: ([lv := x for x in xs], lv)
print(lam([4, 5]))
