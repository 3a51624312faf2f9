# Lambdas as values: dispatch tables, currying, composition, key functions.
ops = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "//": lambda a, b: a // b if b else None,
}
print({k: f(17, 5) for k, f in ops.items()}, ops["//"](1, 0))


def compose(*fns):
    def run(x):
        for f in reversed(fns):
            x = f(x)
        return x
    return run


inc = lambda x: x + 1
dbl = lambda x: x * 2
print(compose(inc, dbl)(5), compose(dbl, inc)(5), compose()(7))
curry = lambda a: lambda b: lambda c: a * 100 + b * 10 + c
print(curry(1)(2)(3), list(map(curry(9)(9), range(3))))
adders = {n: (lambda x, n=n: x + n) for n in range(3)}
print([adders[n](10) for n in range(3)])
rpn = "3 4 + 2 * 7 -".split()
stack = []
for tok in rpn:
    if tok in ops:
        b, a = stack.pop(), stack.pop()
        stack.append(ops[tok](a, b))
    else:
        stack.append(int(tok))
print(stack)
fib = lambda n: n if n < 2 else fib(n - 1) + fib(n - 2)
print([fib(i) for i in range(12)], (lambda *a, **k: (a, k))(1, x=2))
print(sorted(["bb", "a", "ccc"], key=lambda s: -len(s)), (lambda: (yield))().__class__.__name__ if False else "gen")
