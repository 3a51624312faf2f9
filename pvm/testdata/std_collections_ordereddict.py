# OrderedDict as an LRU cache, plus ChainMap-free layering with dicts.
from collections import OrderedDict


class LRU:
    def __init__(self, cap):
        self.cap = cap
        self.d = OrderedDict()
        self.evicted = []

    def get(self, k):
        if k not in self.d:
            return None
        self.d.move_to_end(k)
        return self.d[k]

    def put(self, k, v):
        if k in self.d:
            self.d.move_to_end(k)
        self.d[k] = v
        if len(self.d) > self.cap:
            self.evicted.append(self.d.popitem(last=False))


c = LRU(3)
for k in "abcab":
    c.put(k, k.upper())
print(list(c.d.items()), c.get("c"), c.get("z"))
c.put("d", "D")
c.put("e", "E")
print(list(c.d), c.evicted)
od = OrderedDict([("x", 1), ("y", 2), ("z", 3)])
od.move_to_end("x")
print(od, od.popitem(), od.popitem(last=False), od)
od2 = OrderedDict(b=1, a=2)
print(od2 == OrderedDict(a=2, b=1), dict(od2) == {"a": 2, "b": 1}, od2 == {"a": 2, "b": 1})
od2["c"] = 0
od2.move_to_end("b", last=False)
print(list(od2.keys()), list(reversed(od2)), od2.setdefault("d", 9), od2)
try:
    OrderedDict().popitem()
except KeyError as e:
    print("KeyError:", e)
defaults = {"fee": 1, "cap": 100, "name": "pool"}
overrides = {"fee": 3}
merged = {**defaults, **overrides}
print(merged, defaults | overrides == merged)
