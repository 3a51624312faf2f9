def f(x, *, y):
    return x + y
print(f(1, y=2))
f(1, 2)
