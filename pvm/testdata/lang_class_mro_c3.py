# C3 linearisation and cooperative super() chains.
class Base:
    def hello(self):
        return ["Base"]

    def __init__(self):
        self.trail = ["Base"]


class A(Base):
    def hello(self):
        return ["A"] + super().hello()

    def __init__(self):
        super().__init__()
        self.trail.append("A")


class B(Base):
    def hello(self):
        return ["B"] + super().hello()

    def __init__(self):
        super().__init__()
        self.trail.append("B")


class C(A, B):
    def hello(self):
        return ["C"] + super().hello()

    def __init__(self):
        super().__init__()
        self.trail.append("C")


class D(B):
    pass


class E(C, D):
    pass


for cls in (A, B, C, D, E):
    print(cls.__name__, [k.__name__ for k in cls.__mro__])
print(C().hello(), C().trail)
print(E().hello(), E().trail)
print(super(A, C()).hello())
print(issubclass(E, Base), issubclass(D, A), isinstance(E(), B))
print(C.__bases__, [b.__name__ for b in E.__bases__])

try:
    class Bad(A, C):
        pass
except TypeError as e:
    print("TypeError:", e)


class X: pass
class Y: pass
class Z: pass
class K1(X, Y): pass
class K2(Y, Z): pass
class K3(X, Z): pass
class M(K1, K2, K3): pass


print([k.__name__ for k in M.mro()])


class Logger:
    def log(self, msg):
        return f"[{type(self).__name__}] {msg}"


class Mixin:
    def log(self, msg):
        return super().log(msg.upper())


class Service(Mixin, Logger):
    pass


print(Service().log("started"))
