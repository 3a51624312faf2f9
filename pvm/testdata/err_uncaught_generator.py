# An error raised inside a generator consumed by a comprehension.
def readings(raw):
    for r in raw:
        yield 100 // r


print([x for x in readings([1, 2, 5])])
print([x for x in readings([4, 0, 2])])
