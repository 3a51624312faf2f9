# dict methods and views used for state bookkeeping.
d = {"b": 2, "a": 1}
d["c"] = 3
d.update({"a": 10}, z=26)
d.update([("y", 25)])
print(d, len(d), list(d), list(d.keys()), list(d.values()), list(d.items())[:2])
print(d.get("a"), d.get("q"), d.get("q", 0), d.setdefault("a", 99), d.setdefault("n", []), d)
print(d.pop("n"), d.pop("missing", "dflt"), d.popitem(), d)
ks = d.keys()
d["new"] = 0
print(ks, "new" in ks, len(ks), ks & {"a", "zz"}, sorted(ks - {"a"}), ks | {"q"} == set(d) | {"q"}, sorted(d.items() & {("a", 10), ("b", 0)}), sorted({"a", "q"} & ks), sorted(ks ^ ["a", "zz"]))
print(list(reversed(d)), list(reversed(d.items()))[0], dict(sorted(d.items())), dict.fromkeys(["x", "y"], 0))
c = d.copy()
c["a"] = -1
print(d["a"], c["a"], c == d, {**c, "a": 10} == d)
print({1: "a", 1.0: "b", True: "c"}, {(1, 2): "t"}[(1, 2)], {None: 0}[None])
nested = {"u1": {"bal": 5, "nonce": 0}, "u2": {"bal": 7, "nonce": 3}}
nested["u1"]["bal"] += 10
print(nested, sum(v["bal"] for v in nested.values()), max(nested, key=lambda k: nested[k]["nonce"]))
inv = {}
for k, v in {"a": 1, "b": 2, "c": 1}.items():
    inv.setdefault(v, []).append(k)
print(inv, {k: v for k, v in sorted(inv.items(), reverse=True)})
dd = dict(a=1, b=2)
del dd["a"]
dd.clear()
print(dd, dict(zip("ab", [1, 2])), dict([("k", "v")]), dict({"x": 1}, y=2))
print({"a": 1} == {"a": 1.0}, {"a": 1, "b": 2} == {"b": 2, "a": 1}, list({"b": 1, "a": 2}))
counts = {}
for ch in "hello world":
    counts[ch] = counts.get(ch, 0) + 1
print(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:3])
for k in list(counts):
    if counts[k] == 1:
        del counts[k]
print(counts)
