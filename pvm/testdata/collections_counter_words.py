from collections import Counter, defaultdict, OrderedDict

text = "to be or not to be that is the question to ask"
freq = Counter(text.split())
print(freq.most_common(3), freq["to"], freq["zebra"])
letters = Counter(c for c in text if c.isalpha())
print(letters.most_common(4), sum(letters.values()), letters.total())
print(sorted((letters & Counter("tttoooz")).items()), sorted((letters - Counter(text.replace(" ", ""))).items()))
inventory = Counter(apples=3, pears=0, plums=-1)
print(+inventory, inventory, list(inventory.elements()))
inventory.update(apples=2, kiwis=1)
print(inventory, inventory.most_common(1))
c = Counter({"x": 2})
c.clear()
print(c, len(c))
by_len = defaultdict(set)
for w in text.split():
    by_len[len(w)].add(w)
print({k: sorted(v) for k, v in sorted(by_len.items())})
seen = OrderedDict.fromkeys("abracadabra")
print("".join(seen), list(seen.values())[:2])
d = defaultdict(list, {"a": [1]})
d2 = d.copy()
d2["a"].append(2)
d2["b"].append(3)
print(d, d2, type(d2).__name__, d2.default_factory is list)
merged = OrderedDict(a=1) | {"b": 2}
print(merged, type(merged).__name__)
