f(a, *b, c=1, **d)
f(*a, *b)
f(**a, **b)
f(a, b=1, *c)
f(a)(b=1)(*c)
obj.method(x).other[1](y)
f(
    a,
    b,
)
f(x for x in y if x)
f(key=lambda x: x)
