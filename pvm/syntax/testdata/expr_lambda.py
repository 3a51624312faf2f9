f = lambda: 0
g = lambda x: x
h = lambda x, y=1: x + y
i = lambda *args, **kw: (args, kw)
j = lambda a, /, b, *, c, d=4: a
k = lambda *, key: key
l = lambda a=1, *b, c, d=2, **e: None
