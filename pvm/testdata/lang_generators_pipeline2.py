# Generator pipelines: lazy stages, early termination, finally on close.
log = []


def source(n):
    try:
        for i in range(n):
            log.append(f"emit {i}")
            yield i
    finally:
        log.append("source closed")


def evens(it):
    for x in it:
        if x % 2 == 0:
            yield x


def scale(it, k):
    for x in it:
        yield x * k


def take(it, n):
    for i, x in enumerate(it):
        if i >= n:
            return
        yield x


src = source(100)
pipe = take(scale(evens(src), 10), 3)
print(list(pipe))
src.close()
print(log[-3:], len(log))
g = source(5)
print(next(g), next(g))
g.close()
print(log[-1])


def running_avg():
    total = count = 0
    avg = None
    while True:
        x = yield avg
        total += x
        count += 1
        avg = round(total / count, 3)


r = running_avg()
next(r)
print([r.send(x) for x in [10, 20, 60, 10]])


def batched(it, n):
    batch = []
    for x in it:
        batch.append(x)
        if len(batch) == n:
            yield tuple(batch)
            batch = []
    if batch:
        yield tuple(batch)


print(list(batched(range(7), 3)), list(batched([], 2)))


def tree(depth):
    if depth == 0:
        yield "leaf"
        return
    yield f"node{depth}"
    yield from tree(depth - 1)
    yield from tree(depth - 1)


print(list(tree(2)))
gen = (x * x for x in range(4))
print(sum(gen), sum(gen))
s3 = source(3)
print(list(zip(s3, "ab")), log[-1])
s3.close()
print(log[-1])


def with_return():
    yield 1
    return "done"


def delegator():
    res = yield from with_return()
    yield res


print(list(delegator()))


def closer():
    try:
        yield 1
        yield 2
    finally:
        print("closer finally")


def outer_closer():
    yield from closer()


oc = outer_closer()
print(next(oc))
oc.close()
print("after close")
