def shout(fn):
    def wrapper(*a, **k):
        return fn(*a, **k).upper()
    wrapper.__name__ = fn.__name__
    return wrapper
@shout
def greet(name):
    return f"hi {name}"
print(greet("bob"), greet.__name__)
def repeat(n):
    def deco(fn):
        def w(x):
            return [fn(x) for _ in range(n)]
        return w
    return deco
@repeat(3)
def ident(x):
    return x
print(ident(7))
calls = []
def trace(fn):
    def w(*args):
        calls.append(fn.__name__)
        return fn(*args)
    return w
@trace
@shout
def inner(s):
    return s
print(inner("x"), calls)
class Reg:
    items = {}
    @classmethod
    def add(cls, fn):
        cls.items[fn.__name__] = fn
        return fn
@Reg.add
def one(): return 1
print(Reg.items["one"]())
def cls_deco(c):
    c.tag = "decorated"
    return c
@cls_deco
class T: pass
print(T.tag)
