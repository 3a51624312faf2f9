assert x
assert x, 'message'
assert (x, y)
del x
del x, y
del x[0], x.y
del (a, b), [c]
del x[1:2]
