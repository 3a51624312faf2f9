from collections import Counter

votes = ["alice", "bob", "alice", "carol", "bob", "alice"]
c = Counter(votes)
print(c)
print(c["alice"], c["nobody"], len(c), c.total())
print(c.most_common(2), c.most_common())
c.update(["carol", "carol", "dave"])
print(c)
c.subtract({"alice": 2})
print(c, sorted(c.elements()))
words = Counter("the quick brown the lazy the".split())
print(words.most_common(1)[0])
a = Counter(a=3, b=1)
b = Counter(a=1, b=2)
print(a + b, a - b, a | b, a & b)
print(+Counter(x=2, y=-1), -Counter(x=2, y=-1))
del a["a"]
print(a, "a" in a, isinstance(a, dict))
e = Counter()
print(e, bool(e), Counter("hello") == Counter("olleh"))
inv = Counter({"apple": 5, "pear": 2})
inv["apple"] -= 1
inv["kiwi"] += 7
print(inv, dict(inv), list(inv.keys()))
x = Counter(a=2)
x += Counter(a=1, b=3)
print(x)
