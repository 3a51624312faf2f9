calls = 0
def tracked(fn):
    def inner(*a):
        global calls
        calls += 1
        return fn(*a)
    return inner
@tracked
def add(a, b):
    return a + b
print(add(1, 2), add(3, 4), calls)
