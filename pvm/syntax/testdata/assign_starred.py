a, *b = range(5)
*c, d = [1, 2]
[e, *f, g] = 'hello'
first, *_ = x
