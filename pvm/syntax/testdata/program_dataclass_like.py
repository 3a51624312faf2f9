class Vec:
    __slots__ = ('x', 'y')

    def __init__(self, x, y):
        self.x, self.y = x, y

    def __add__(self, other):
        return Vec(self.x + other.x, self.y + other.y)

    def __repr__(self):
        return f'Vec({self.x!r}, {self.y!r})'

    def __eq__(self, other):
        return isinstance(other, Vec) and (self.x, self.y) == (other.x, other.y)

    @staticmethod
    def zero():
        return Vec(0, 0)

    @classmethod
    def of(cls, *xy):
        return cls(*xy)
