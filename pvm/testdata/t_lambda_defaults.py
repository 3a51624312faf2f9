f = lambda x, y=10, *a, k=1, **kw: (x, y, a, k, kw)
print(f(1), f(1, 2, 3, k=4, z=5))
ops = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b}
print({k: fn(6, 3) for k, fn in ops.items()})
print(sorted(["ccc", "a", "bb"], key=lambda s: (len(s), s)), (lambda: (yield))().__class__.__name__ if False else "")
