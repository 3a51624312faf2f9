# Secondary indexes for actor state with defaultdict.
from collections import defaultdict

orders = [
    ("o1", "alice", "ETH", 3), ("o2", "bob", "BTC", 1), ("o3", "alice", "BTC", 2),
    ("o4", "carol", "ETH", 7), ("o5", "bob", "ETH", 1), ("o6", "alice", "ETH", 4),
]
by_owner = defaultdict(list)
by_asset = defaultdict(set)
volume = defaultdict(int)
nested = defaultdict(lambda: defaultdict(int))
for oid, owner, asset, qty in orders:
    by_owner[owner].append(oid)
    by_asset[asset].add(owner)
    volume[asset] += qty
    nested[owner][asset] += qty

print(dict(by_owner))
print({k: sorted(v) for k, v in by_asset.items()})
print(dict(volume), volume["DOGE"], "DOGE" in volume)
print({k: dict(v) for k, v in nested.items()})
print(type(by_owner).__name__, by_owner.default_factory.__name__)
d = defaultdict(None)
try:
    d["x"]
except KeyError as e:
    print("KeyError", e)
counts = defaultdict(int, {"a": 5})
counts["b"] += 2
print(sorted(counts.items()), counts.get("zz"), "zz" in counts)
print(repr(defaultdict(list, {1: [2]})))
graph = defaultdict(list)
for u, v in [(1, 2), (1, 3), (2, 4), (3, 4), (4, 5)]:
    graph[u].append(v)
seen, order, stack = set(), [], [1]
while stack:
    n = stack.pop()
    if n in seen:
        continue
    seen.add(n)
    order.append(n)
    stack.extend(reversed(graph[n]))
print(order, sorted(graph))
