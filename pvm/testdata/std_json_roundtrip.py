# json: dumps options and loads round trips.
import json

doc = {"b": [1, 2.5, None, True], "a": {"y": "é", "x": []}, "c": "quote\" back\\ nl\n"}
print(json.dumps(doc))
print(json.dumps(doc, sort_keys=True, indent=4))
print(json.dumps(doc, separators=(",", ":"), sort_keys=True, ensure_ascii=False))
print(json.dumps([1, [2, [3, {}]]], indent=1))
print(json.dumps({"k": [1, 2]}, indent="\t"))
print(json.dumps(0.1), json.dumps(1e100), json.dumps(-5), json.dumps(10**20), json.dumps(""), json.dumps([]))
print(json.dumps(float("inf")), json.dumps(float("nan")), json.dumps({"t": (1, 2)}))
print(json.dumps({True: 1, None: 2, 1.5: 3}))
for text in ['{"a": {"b": [1, {"c": null}]}}', '[1.0, 2e-3, -0, 1E2]', '"\\ud83d\\ude00"', "true", '{"dup": 1, "dup": 2}',
             '  {"sp" :  [ 1 , 2 ] }  ', '"tab\\tquote\\"slash\\/"', "123456789012345678901234567890"]:
    v = json.loads(text)
    print(repr(v), json.dumps(v))
s = json.dumps(doc, sort_keys=True)
print(json.loads(s) == doc, json.loads(json.dumps(doc)) == doc)
for bad in ["{'a': 1}", "[1,]", '{"a" 1}', "01", "[1] x", '"unterminated', "NaNx", "{"]:
    try:
        json.loads(bad)
        print("parsed", bad)
    except ValueError as e:
        print("error", repr(bad), type(e).__name__)
try:
    json.dumps(object())
except TypeError as e:
    print("TypeError:", e)
try:
    json.dumps({(1, 2): 3})
except TypeError as e:
    print("TypeError:", e)
print(json.dumps({"z": 1, "a": {"m": 2, "b": 3}}, sort_keys=True, separators=(", ", ": ")))
