def g():
    yield 1
    raise ValueError("from generator")
for v in g():
    print(v)
