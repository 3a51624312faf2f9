class Base:
    def __init__(self):
        self._v = 1
    @property
    def v(self):
        return self._v
    @v.setter
    def v(self, x):
        if x < 0:
            raise ValueError("negative")
        self._v = x
class Child(Base):
    @property
    def double(self):
        return self.v * 2
c = Child()
c.v = 5
print(c.v, c.double)
try:
    c.v = -1
except ValueError as e:
    print("rejected", e)
try:
    c.double = 3
except AttributeError as e:
    print("AttributeError", e)
print(isinstance(Child.v, property), type(Base.__dict__["v"]).__name__)
