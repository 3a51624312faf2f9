class Base:
    def greet(self):
        return "base"
class Child(Base):
    pass
c = Child()
print(c.greet(), Child.greet(c))
def new_greet(self):
    return "patched"
Base.greet = new_greet
print(c.greet(), Child().greet())
Child.greet = lambda self: "child override"
print(c.greet(), Base().greet())
del Child.greet
print(c.greet())
Base.color = "red"
print(c.color, Child.color)
del Base.color
print(hasattr(c, "color"))
Dyn = type("Dyn", (Base,), {"x": 1})
class Sub(Dyn):
    pass
s = Sub()
print(s.x, s.greet())
Dyn.x = 2
print(s.x)
