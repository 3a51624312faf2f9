# Assigning __defaults__ and __kwdefaults__ changes what later calls bind,
# as in CPython (func_set_defaults, func_set_kwdefaults).


def f(a=1):
    return a


print(f(), f.__defaults__)
f.__defaults__ = (5,)
print(f(), f(7), f.__defaults__)


def g(a, b=2, c=3):
    return (a, b, c)


g.__defaults__ = (20, 30)
print(g(1), g(1, 9), g(1, c=0))
g.__defaults__ = (10, 20, 30)
print(g(), g(b=0))
g.__defaults__ = (0, 10, 20, 30)  # more than parameters: the last ones count
print(g(), g(4))
g.__defaults__ = (99,)
print(g(1, 2))
try:
    g(1)
except TypeError as e:
    print("TypeError:", e)
try:
    g(1, c=5)
except TypeError as e:
    print("TypeError:", e)
try:
    g(1, 2, 3, 4)
except TypeError as e:
    print("TypeError:", e)

f.__defaults__ = None
print(f.__defaults__)
try:
    f()
except TypeError as e:
    print("TypeError:", e)
print(f(3))

for bad in ([5], 5, "x", {"a": 1}):
    try:
        f.__defaults__ = bad
    except TypeError as e:
        print("TypeError:", e)
print(f.__defaults__)

f.__defaults__ = ()
print(f.__defaults__)
try:
    f()
except TypeError as e:
    print("TypeError:", e)

f.__defaults__ = (8,)
del f.__defaults__
print(f.__defaults__)
try:
    f()
except TypeError as e:
    print("TypeError:", e)
print("__defaults__" in f.__dict__)


def h(a, *, k=1, m=2):
    return (a, k, m)


print(h(0), h.__kwdefaults__)
h.__kwdefaults__ = {"k": 10, "m": 20}
print(h(0), h(0, m=5), h.__kwdefaults__)
h.__kwdefaults__["k"] = 11
print(h(0))
h.__kwdefaults__ = {"m": 7}
try:
    h(0)
except TypeError as e:
    print("TypeError:", e)
print(h(0, k=1))
for bad in ((1,), [1], 1):
    try:
        h.__kwdefaults__ = bad
    except TypeError as e:
        print("TypeError:", e)
h.__kwdefaults__ = None
print(h.__kwdefaults__)
try:
    h(0)
except TypeError as e:
    print("TypeError:", e)
del h.__kwdefaults__
print(h.__kwdefaults__)


# A method reads its function's current defaults too.
class C:
    def m(self, x=1):
        return x


c = C()
print(c.m())
C.m.__defaults__ = (42,)
print(c.m(), C().m())


# A lambda, a generator and a closure.
lam = lambda x=1, y=2: x + y
lam.__defaults__ = (10, 20)
print(lam(), lam(1))


def gen(n=2):
    yield from range(n)


gen.__defaults__ = (4,)
print(list(gen()))


def outer():
    k = 100

    def inner(a=1):
        return a + k

    return inner


fn = outer()
fn.__defaults__ = (5,)
print(fn())

# The defaults are the tuple's values at assignment time; the tuple is
# immutable, but a mutable default inside it is shared.
acc = []
f.__defaults__ = (acc,)
f().append(1)
print(acc, f())
# Repeated calls in a loop (the call fast paths) see the change.
total = 0
for i in range(3):
    f.__defaults__ = (i,)
    total += f()
print(total)
