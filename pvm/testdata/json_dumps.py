import json

print(json.dumps({"a": [1, 2, {"b": None}], "c": "é\u2028😀\x7f\x01\t"}, indent=2))
print(json.dumps([], indent=2), json.dumps({}, indent=2), json.dumps([[]], indent=0))
print(json.dumps([1, {"a": 2}], indent="\t"))
print(json.dumps({1: 2, 1.5: 3, True: 4, None: 5, False: 6}))
print(json.dumps([float("nan"), float("inf"), -float("inf"), 1e16, 1.0, -0.0, 1e-5, 0.1 + 0.2, 123456789.125]))
print(json.dumps({"z": 1, "a": [3, 2, 1], "m": {"y": True, "b": False}}, sort_keys=True))
print(json.dumps({"z": 1, "a": 2}, sort_keys=True, separators=(",", ":")))
print(json.dumps([1, 2], separators=(",", ":")), json.dumps({"a": 1}, separators=(";", "=")))
print(json.dumps({"a": [1, 2]}, indent=2, separators=(", ", ": ")))
print(json.dumps(10**30), json.dumps(-7), json.dumps('a"b\\c/'), json.dumps(""))
print(json.dumps("é😀", ensure_ascii=False), json.dumps("\x7f\x1f", ensure_ascii=False))
print(json.dumps((1, (2, 3))), json.dumps([True, False, None]))
print(json.dumps({(1, 2): 3, "a": 1}, skipkeys=True))
print(json.dumps({"x": {1, 2}}, default=sorted))


class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y


print(json.dumps([Point(1, 2), Point(3, 4)], default=lambda p: {"x": p.x, "y": p.y}, sort_keys=True))
print(json.dumps([1], indent=-1), json.dumps({"a": 1}, indent=True))
print(json.dumps({"k": [1, [2, [3, {}]]]}, indent=4, sort_keys=True))
canon = json.dumps({"b": [1, 2.5, "x"], "a": {"d": None, "c": True}}, sort_keys=True, separators=(",", ":"))
print(canon, len(canon))

for bad in [{1, 2}, {(1, 2): 3}, b"x", object(), Point(0, 0)]:
    try:
        json.dumps(bad)
    except TypeError as e:
        print("TypeError:", e)
try:
    json.dumps(float("nan"), allow_nan=False)
except ValueError as e:
    print("ValueError:", e)
try:
    json.dumps({1: 2, "a": 3}, sort_keys=True)
except TypeError as e:
    print("TypeError:", e)
a = []
a.append(a)
for kw in [{}, {"indent": 1}]:
    try:
        json.dumps(a, **kw)
    except ValueError as e:
        print("ValueError:", e)
d = {}
d["self"] = d
try:
    json.dumps(d)
except ValueError as e:
    print("ValueError:", e)
try:
    json.dumps(set(), default=lambda o: o)
except ValueError as e:
    print("ValueError:", e)
try:
    json.dumps(1, 2)
except TypeError as e:
    print("TypeError:", e)
try:
    json.dumps(1, foo=2)
except TypeError as e:
    print("TypeError:", e)
