# Encoding actor state canonically with json.dumps(sort_keys=True).
import json

state = {
    "owner": "0xabc",
    "balances": {"zed": 10, "amy": 250, "bob": 0},
    "paused": False,
    "fee_bps": 25,
    "history": [[1, "mint", 100], [2, "burn", 5]],
    "meta": {"name": "Coin", "tags": ["a", "b"], "ratio": 0.5, "none": None},
}
canon = json.dumps(state, sort_keys=True, separators=(",", ":"))
print(canon)
print(json.dumps(state, sort_keys=True))
print(json.dumps(state["meta"], indent=2, sort_keys=True))
back = json.loads(canon)
print(back == state, type(back["history"][0]).__name__)
print(json.dumps(back, sort_keys=True, separators=(",", ":")) == canon)

# Two orderings of the same dict give the same canonical bytes.
a = {"x": 1, "y": [1, 2], "z": {"b": 1, "a": 2}}
b = {"z": {"a": 2, "b": 1}, "y": [1, 2], "x": 1}
print(json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True))
print(json.dumps(a) == json.dumps(b))

print(json.dumps("héllo \"q\" \n\t\\"))
print(json.dumps("héllo", ensure_ascii=False))
print(json.dumps([1.0, 1e20, 1.5e-7, -0.0, 3, True, None]))
print(json.dumps({1: "int key", "2": "str"}), json.dumps({3: 1, 1: 2}, sort_keys=True))
print(json.dumps((1, 2, (3,))))
print(json.loads('{"a": [1, 2.5, "x", null, true, false], "b": {}}'))
print(json.loads("  [ ]  "), json.loads('"\\u00e9\\n"'), json.loads("-12"), json.loads("1e3"))
for bad in ['{"a": 1,}', "[1, 2", "nul", ""]:
    try:
        json.loads(bad)
    except json.JSONDecodeError as e:
        print("bad json:", type(e).__name__, isinstance(e, ValueError))
try:
    json.dumps({"s": {1, 2}})
except TypeError as e:
    print("TypeError", e)
