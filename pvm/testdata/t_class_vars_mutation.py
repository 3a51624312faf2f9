class Shared:
    items = []
    def add(self, x):
        self.items.append(x)
a, b = Shared(), Shared()
a.add(1); b.add(2)
print(Shared.items, a.items is b.items)
class Own:
    def __init__(self):
        self.items = []
    def add(self, x):
        self.items.append(x)
c, d = Own(), Own()
c.add(1); d.add(2)
print(c.items, d.items)
Shared.extra = "late"
print(a.extra, hasattr(Own, "extra"))
