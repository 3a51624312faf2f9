def outer(a):
    def middle(b):
        def inner(c):
            return a + b + c
        return inner
    return middle

print(outer(1)(2)(3))
fn = (lambda x: (lambda y: x * y))
