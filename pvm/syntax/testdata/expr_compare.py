a < b
a < b <= c > d >= e == f != g
x is None
x is not None
x in y
x not in y
a < b < c
