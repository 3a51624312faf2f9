from collections import OrderedDict, defaultdict

od = OrderedDict()
od["b"] = 2
od["a"] = 1
od["c"] = 3
print(od, list(od))
od.move_to_end("b")
print(list(od.items()))
od.move_to_end("c", last=False)
print(od)
print(od.popitem(), od.popitem(last=False), od)
lru = OrderedDict()
for k in ["x", "y", "z", "x", "w"]:
    if k in lru:
        lru.move_to_end(k)
    lru[k] = True
    if len(lru) > 3:
        lru.popitem(last=False)
print(list(lru))
print(OrderedDict(a=1) == OrderedDict(a=1), OrderedDict([("a", 1), ("b", 2)]) == OrderedDict([("b", 2), ("a", 1)]))
print(OrderedDict([("a", 1), ("b", 2)]) == {"b": 2, "a": 1}, OrderedDict(), isinstance(od, dict))

groups = defaultdict(list)
for name, team in [("ann", "red"), ("bo", "blue"), ("cy", "red")]:
    groups[team].append(name)
print(groups)
print(dict(groups), groups["green"], len(groups))
counts = defaultdict(int)
for ch in "mississippi":
    counts[ch] += 1
print(sorted(counts.items()))
nested = defaultdict(lambda: defaultdict(int))
nested["a"]["x"] += 1
nested["a"]["y"] += 2
print({k: dict(v) for k, v in nested.items()})
plain = defaultdict(None, {"k": 1})
try:
    plain["missing"]
except KeyError as e:
    print("KeyError", e)
print(counts.get("z"), "z" in counts, groups.default_factory)
