with a:
    pass
with a as b:
    pass
with a as b, c as d:
    pass
with a, b:
    pass
with a as (b, c):
    pass
with a as b.c, d as e[0]:
    pass
with (a as b, c as d):
    pass
with (a, b):
    pass
with (a):
    pass
with (
    open(x) as f,
    open(y) as g,
):
    pass
with (a as b): pass
with (a, b) as c: pass
