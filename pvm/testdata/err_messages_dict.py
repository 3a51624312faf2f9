# Dict errors: messages must match CPython.
def attempt(label, fn):
    try:
        r = fn()
        print(label, "ok", r)
    except Exception as e:
        print(label, type(e).__name__, str(e), repr(e.args))


d = {"a": 1, (1, 2): "t", 3: "three"}
attempt("missing str", lambda: d["zz"])
attempt("missing tuple", lambda: d[(9, 9)])
attempt("missing int", lambda: d[4])
attempt("unhashable list", lambda: d[[1]])
attempt("unhashable dict key set", lambda: d.__setitem__({}, 1))
attempt("unhashable set", lambda: {{1}: 2})
attempt("pop missing", lambda: {}.pop("k"))
attempt("pop default", lambda: {}.pop("k", "dflt"))
attempt("popitem empty", lambda: {}.popitem())
attempt("fromkeys", lambda: dict.fromkeys("ab", 0))
attempt("update bad", lambda: {}.update([1, 2]))
attempt("update seq len", lambda: {}.update([("a", 1, 2)]))
attempt("dict from bad", lambda: dict([("a",), ("b", 2)]))
attempt("dict kwargs", lambda: dict({"a": 1}, b=2))
attempt("get", lambda: d.get("nope"))
attempt("setdefault", lambda: d.setdefault("new", []))
attempt("del missing", lambda: d.__delitem__("gone"))
attempt("dict | list", lambda: {} | [])
attempt("dict + dict", lambda: {} + {})
attempt("dict < dict", lambda: {} < {})
attempt("keys index", lambda: d.keys()[0])
attempt("change during iteration", lambda: [d.__setitem__(k * 2 if isinstance(k, str) else 99, 0) for k in d])
attempt("merge", lambda: {"a": 1} | {"b": 2})
e = {}
e |= {"x": 1}
print(e, list(d), len(d))
try:
    del e["y"]
except KeyError as k:
    print("KeyError", k, k.args)
try:
    {"a": 1}["b"]
except LookupError as k:
    print("LookupError catches", type(k).__name__)
