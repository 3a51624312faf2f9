def squares(n):
    for i in range(n):
        yield i * i
gen = squares(4)
print(type(gen).__name__, list(gen), list(gen))
def delegator():
    result = yield from inner()
    yield f"inner returned {result}"
def inner():
    x = yield "first"
    yield f"got {x}"
    return "done"
d = delegator()
print(next(d), d.send("hello"), next(d))
def infinite():
    i = 0
    while True:
        yield i
        i += 1
for v in infinite():
    if v > 3:
        break
    print("v", v)
def pairs(xs):
    it = iter(xs)
    for a in it:
        yield a, next(it, None)
print(list(pairs([1, 2, 3, 4, 5])))
gen_exp = (c.upper() for c in "abc")
print(next(gen_exp), "".join(gen_exp))
def early_return(n):
    for i in range(n):
        if i == 2:
            return
        yield i
print(list(early_return(10)))
print(sum(x for x in range(10) if x % 3 == 0), max((x % 7 for x in range(20))), sorted(x % 3 for x in range(6)))
