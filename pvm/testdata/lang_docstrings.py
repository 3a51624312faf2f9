"""Docstrings: a module's and a class's become __doc__ (CPython 3.11)."""
print(__doc__)
def f():
    "fdoc"
print(f.__doc__, f())
def g():
    f"not {1}"
    return 1
print(g.__doc__, g())
def h():
    "a" "b"
    return 2
print(h.__doc__, h())
class C:
    """class doc"""
    def m(self):
        """m doc"""
    def doc(self):
        return __doc__
print(C.__doc__, C.m.__doc__, C().m.__doc__, C().doc())
class D:
    x = 1
    y = __doc__
print(D.__doc__, D.y)
async def co():
    "co doc"
print(co.__doc__)
def k():
    b"bytes"
print(k.__doc__)
def n():
    1
    "late"
print(n.__doc__)
print((lambda: "x").__doc__)
class E:
    "e"
    __doc__ = "override"
print(E.__doc__)
class F(C):
    pass
print(F.__doc__)
class G:
    "g doc"
    seen = __doc__
print(G.seen, G().__doc__)


class H(F):
    "h doc"


class J(H):
    pass


print(H.__doc__, J.__doc__, J().__doc__, H().__doc__)


class Plain:
    pass


p = Plain()
print(Plain.__doc__, p.__doc__)
p.__doc__ = "instance"
print(p.__doc__, Plain.__doc__)


def reads_module_doc():
    return __doc__


print(reads_module_doc() == __doc__)
