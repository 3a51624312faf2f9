import json

docs = ['{"a": [1, 2.5, -3e2, true, false, null], "b": {"c": "d\\n\\u00e9\\ud83d\\ude00"}}',
        '  [ ]  ', '{}', '"\\"\\\\\\/\\b\\f\\n\\r\\t"', '-0', '-0.0', '1E5', '1.5e300', '1e400',
        'NaN', '-Infinity', 'Infinity', '123456789012345678901234567890', '[[[[1]]]]',
        '{"a": 1, "a": 2}', '"é😀"', '0.1', '[1,\n 2\n]']
for doc in docs:
    print(repr(json.loads(doc)))
print(json.loads(b'[1, "x"]'), json.loads(bytearray(b'{"a": "\xc3\xa9"}')))

bad = ['', ' ', '[1,]', '{"a":1,}', '{"a" 1}', '{a:1}', '[1 2]', '"abc', '"a\\x"', '"a\\u12g4"',
       '"a\nb"', '1 2', '[', '{', '{"a":', 'nul', 'tru', '-', '01', '1.', '1e', '[1,2', '{"a":1',
       '\ufeff1', '  \n  x', '[1,\n 2,\n ]', '{"a":1 "b":2}', '[}', '{"a"}', '"\\', '"\\u12', '+1']
for doc in bad:
    try:
        json.loads(doc)
        print("no error", repr(doc))
    except json.JSONDecodeError as e:
        print(repr(doc), "->", e, "|", e.msg, e.pos, e.lineno, e.colno, isinstance(e, ValueError))
try:
    json.loads(5)
except TypeError as e:
    print("TypeError:", e)
try:
    json.loads("[")
except ValueError as e:
    print(type(e).__name__, repr(e), e.args)

print(json.loads('{"a": 1, "b": [2]}', object_hook=lambda d: sorted(d.items())))
print(json.loads('{"b": 1, "a": 2}', object_pairs_hook=lambda p: p))
print(json.loads('[1.5, 2]', parse_float=lambda s: "F" + s, parse_int=lambda s: "I" + s))
print(json.loads('[NaN]', parse_constant=lambda s: s.lower()))
value = {"name": "cowboy", "n": [1, 2, 3], "nested": {"ok": True, "pi": 3.14159}}
assert json.loads(json.dumps(value)) == value
print(json.loads(json.dumps(value, indent=3)) == value)
print(json.JSONDecodeError.__name__, issubclass(json.JSONDecodeError, ValueError))
