def f():
    return
def g():
    return 1
def h():
    return 1, 2
def i():
    return *a, b
