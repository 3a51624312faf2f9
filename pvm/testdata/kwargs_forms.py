def f(a, b=2, /, c=3, *args, d, e=5, **kw):
    return (a, b, c, args, d, e, sorted(kw.items()))
print(f(1, d=4))
print(f(1, 2, 3, 4, 5, d=6, z=7))
print(f(*[1, 2], **{"d": 0, "c": 9, "x": 1}))
def g(**kw):
    return kw
print(g(), g(a=1), g(**{"b": 2}, c=3))
try:
    f(1, 2, b=3, d=4)
except TypeError as e:
    print("TypeError:", e)
try:
    f(1)
except TypeError as e:
    print("TypeError:", e)
def h(x, y):
    return x - y
print(h(y=1, x=5), h(5, y=1))
try:
    h(1, x=2)
except TypeError as e:
    print("TypeError:", e)
try:
    h(1, 2, 3)
except TypeError as e:
    print("TypeError:", e)
try:
    h(1, z=2)
except TypeError as e:
    print("TypeError:", e)
