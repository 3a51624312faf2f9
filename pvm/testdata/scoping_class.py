x = "module"
class C:
    x = "class"
    y = x + "!"
    def method(self):
        return x
    z = [x for _ in range(1)]
print(C.y, C().method(), C.z)
def f():
    x = "function"
    class D:
        w = x
        def m(self):
            return x
    return D.w, D().m()
print(f())
class Counter:
    count = 0
    def inc(self):
        self.count += 1
        return self.count
c1, c2 = Counter(), Counter()
print(c1.inc(), c1.inc(), c2.inc(), Counter.count)
