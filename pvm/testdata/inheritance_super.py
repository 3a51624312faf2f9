class A:
    def __init__(self):
        self.log = ["A"]
    def greet(self):
        return "A"
class B(A):
    def __init__(self):
        super().__init__()
        self.log.append("B")
    def greet(self):
        return "B>" + super().greet()
class C(A):
    def __init__(self):
        super().__init__()
        self.log.append("C")
    def greet(self):
        return "C>" + super().greet()
class D(B, C):
    def __init__(self):
        super().__init__()
        self.log.append("D")
    def greet(self):
        return "D>" + super().greet()
d = D()
print(d.log, d.greet())
class Base:
    @classmethod
    def create(cls):
        return cls()
    def name(self):
        return type(self).__name__
class Derived(Base):
    @classmethod
    def create(cls):
        obj = super().create()
        obj.extra = True
        return obj
o = Derived.create()
print(o.name(), o.extra, isinstance(o, Base))
class X:
    def m(self):
        return "X.m"
class Y(X):
    def m(self):
        return super(Y, self).m() + "+Y"
print(Y().m())
