def outer():
    items = []
    for i in range(3):
        def show(i=i):
            return i * 10
        items.append(show)
    return [f() for f in items]
print(outer())
def counter():
    n = 0
    def get():
        return n
    n = 5
    return get
print(counter()())
class A:
    val = 1
    lst = [val for _ in range(2)] if False else None
    def get(self):
        return self.val
print(A().get(), A.lst)
def gen_closure():
    x = 1
    def g():
        yield x
        yield x + 1
    x = 10
    return list(g())
print(gen_closure())
def deep():
    a = 1
    def l1():
        b = 2
        def l2():
            def l3():
                return a + b
            return l3()
        return l2()
    return l1()
print(deep())
try:
    def bad():
        print(undefined_local)
        undefined_local = 1
    bad()
except UnboundLocalError as e:
    print("UnboundLocalError", e)
