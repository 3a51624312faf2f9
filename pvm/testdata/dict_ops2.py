d = {}
for i, ch in enumerate("abracadabra"):
    d.setdefault(ch, []).append(i)
print(d)
inv = {v: k for k, v in {"a": 1, "b": 2}.items()}
print(inv, sorted(d), list(d)[0], len(d))
d2 = dict(zip("xyz", range(3)))
print(d2, d2.get("y"), d2.keys() == {"x", "y", "z"} if False else "skip")
items = list(d2.items())
items.sort(key=lambda kv: -kv[1])
print(items)
merged = {**d2, "x": 100}
print(merged, "x" in merged, merged.pop("x"), merged)
nested = {"a": {"b": {"c": 1}}}
print(nested["a"]["b"]["c"], nested.get("z", {}).get("q"))
keys = ["k1", "k2"]
print(dict.fromkeys(keys), {k: len(k) for k in keys})
while d2:
    print(d2.popitem())
cnt = {}
for w in ["x", "y", "x"]:
    cnt[w] = cnt.get(w, 0) + 1
print(cnt, max(cnt, key=cnt.get), sum(cnt.values()))
print({1: "a"} == {1: "a"}, {1: "a"} == {1: "b"}, {} == dict())
