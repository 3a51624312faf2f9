# Classes defined inside functions: methods close over the function's
# variables through the class body.


def make_counter_class(start, step):
    class Counter:
        origin = start

        def __init__(self):
            self.n = start

        def tick(self):
            self.n += step
            return self.n

        @classmethod
        def describe(cls):
            return "from %d by %d" % (start, step)

    return Counter


C = make_counter_class(10, 5)
c = C()
print(c.tick(), c.tick(), C.describe(), C.origin)


def make_key(cmp):
    class K:
        def __init__(self, obj):
            self.obj = obj

        def __lt__(self, other):
            return cmp(self.obj, other.obj) < 0

    return K


print(sorted([3, 1, 2], key=make_key(lambda a, b: b - a)))


def outer():
    x = "outer-x"

    class A:
        x = "class-x"

        def get(self):
            return x

        class B:
            def get(self):
                return x

    return A().get(), A.x, A.B().get()


print(outer())
