class Key:
    def __init__(self, a, b):
        self.a, self.b = a, b
    def __eq__(self, other):
        if not isinstance(other, Key):
            return NotImplemented
        return (self.a, self.b) == (other.a, other.b)
    def __hash__(self):
        return hash((self.a, self.b))
    def __repr__(self):
        return f"Key({self.a}, {self.b})"
d = {Key(1, 2): "x"}
print(d[Key(1, 2)], Key(1, 2) in d, Key(2, 1) in d, Key(1, 2) == Key(1, 2), Key(1, 2) == (1, 2))
s = {Key(1, 1), Key(1, 1), Key(2, 2)}
print(len(s))
class NoHash:
    def __eq__(self, o):
        return True
try:
    hash(NoHash())
except TypeError as e:
    print("TypeError", e)
class Plain:
    pass
p = Plain()
print(p == p, p != Plain(), len({p, p}))
