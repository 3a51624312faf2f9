def counter():
    count = 0
    def inc():
        nonlocal count
        count += 1
        return count
    return inc
c = counter()
print(c(), c(), c())
c2 = counter()
print(c2(), c())
def make_adders():
    return [lambda x, i=i: x + i for i in range(3)]
print([f(10) for f in make_adders()])
def late():
    fs = []
    for i in range(3):
        fs.append(lambda: i)
    return [f() for f in fs]
print(late())
g = 1
def use_global():
    global g
    g += 1
    return g
print(use_global(), use_global(), g)
def outer():
    x = "outer"
    def middle():
        def inner():
            return x
        return inner()
    return middle()
print(outer())
def shadow():
    x = 1
    def f():
        x = 2
        return x
    return f(), x
print(shadow())
