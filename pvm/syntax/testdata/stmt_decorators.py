@dec
def f(): pass
@a.b.c
@d(1, k=2)
@e[0]
def g():
    pass
@dec
class C: pass
@(lambda f: f)
def h(): pass
@x if y else z
def i(): pass
