g = 0
def f():
    global g
    global a, b, c
    g = 1
def outer():
    x = 0
    def inner():
        nonlocal x
        nonlocal x, y
        x += 1
    return inner
