def f():
    pass
def g(a, b):
    return a + b
def h(a, b=1, *args, c, d=2, **kwargs):
    pass
def i(a, b, /, c, *, d):
    pass
def j(a=1, /, b=2):
    pass
def k(*, a):
    pass
def l(a, /):
    pass
