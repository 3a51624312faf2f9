def make_class(base_value):
    class Dynamic:
        value = base_value
        def get(self):
            return self.value * 2
    return Dynamic
A = make_class(3)
B = make_class("x")
print(A().get(), B().get(), A.__name__, A is not B)
