def total(items):
    s = 0
    for it in items:
        s += it
    return s
print(total([1, 2, 3]))
print(total([1, "two"]))
