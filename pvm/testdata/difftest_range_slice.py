# Found by pvm/difftest: range slicing maps the slice's stop index
# through the range.
for r in [range(-10, 0, 3), range(-12, 0, 2), range(10), range(5, -5, -2), range(0), range(3, 3)]:
    for sl in [slice(2, -1, 2), slice(4, 6, -3), slice(None, None, -1), slice(-100, 100), slice(1, None, 3), slice(None, -2, -2), slice(7, 2, -1)]:
        x = r[sl]
        print(r, sl, x, list(x) == list(r)[sl])
