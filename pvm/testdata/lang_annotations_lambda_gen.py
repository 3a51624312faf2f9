# Annotated assignments as CPython 3.11 compiles them (Language Reference
# §7.2.2), and the return value of a lambda that yields.
x: int = 1
y: "str"
print(sorted(__annotations__.items()))


class A:
    a: int
    (b): float = 2.0
    c: list = []
    if True:
        d: dict = {}


print(A.__annotations__, A.b)


class C:
    try:
        pass
    except Exception:
        e: int = 1


print(C.__annotations__)


class Obj:
    pass


o = Obj()
o.attr: int = 5
print(o.attr)
lst = [0, 0]
lst[1]: int = 9
print(lst)


def f():
    # In a function an annotation is never evaluated.
    q: undefined_name = 3
    r: also_undefined
    return q


print(f())
try:
    missing.attr: int
except NameError as e:
    print("name error", e)
try:
    lst[undefined_index]: int
except NameError as e:
    print("name error", e)
try:
    lst[0:undefined_bound]: int
except NameError as e:
    print("name error", e)
try:
    z: undefined_ann = 1
except NameError as e:
    print("annotation evaluated after the value:", e, z)


def g():
    try:
        nothere.attr: int
    except NameError as e:
        print("in g", e)


g()
print(sorted(__annotations__))

gen = (lambda: (yield 1))()
print(next(gen))
try:
    gen.send(5)
except StopIteration as e:
    print("lambda generator returned", e.value)
h = (lambda x: [(yield x), (yield x + 1)])(3)
print(next(h), h.send("a"))
try:
    h.send("b")
except StopIteration as e:
    print("returned", e.value)
k = (lambda: (yield from [1, 2]))()
print(list(k))


# A parenthesized name is not bound by its annotation alone; a simple one
# is.
def paren():
    (x): int
    return x


def simple():
    x: int
    try:
        return x
    except NameError as e:
        return type(e).__name__


x = "global x"
print(paren(), simple())
