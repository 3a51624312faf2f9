class Config:
    defaults = {"a": 1}
    def __init__(self, **overrides):
        self.values = dict(self.defaults)
        self.values.update(overrides)
    def __getitem__(self, k):
        return self.values[k]
    def __contains__(self, k):
        return k in self.values
    def __len__(self):
        return len(self.values)
c = Config(b=2)
print(c["a"], c["b"], "a" in c, "z" in c, len(c), Config.defaults)
class Stack:
    def __init__(self):
        self._items = []
    def push(self, x):
        self._items.append(x)
        return self
    def pop(self):
        return self._items.pop()
    @property
    def size(self):
        return len(self._items)
    def __repr__(self):
        return f"Stack({self._items})"
s = Stack().push(1).push(2).push(3)
print(s, s.size, s.pop(), s)
class Counter:
    instances = 0
    def __init__(self):
        Counter.instances += 1
        self.id = Counter.instances
a, b = Counter(), Counter()
print(a.id, b.id, Counter.instances, a.instances)
a.instances = 100
print(a.instances, Counter.instances, b.instances)
print(type(a).__name__, a.__class__.__name__, Counter.__name__)
class Slots:
    x = 1
o = Slots()
o.y = 2
print(o.x, o.y, hasattr(o, "x"), sorted(k for k in vars(o)))
del o.y
print(hasattr(o, "y"))
