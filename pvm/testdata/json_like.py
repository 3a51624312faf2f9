def dumps(v, indent=0):
    pad = "  " * indent
    if isinstance(v, dict):
        if not v:
            return "{}"
        items = [f'{pad}  "{k}": {dumps(val, indent + 1)}' for k, val in sorted(v.items())]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(v, list):
        return "[" + ", ".join(dumps(x, indent) for x in v) + "]"
    if isinstance(v, str):
        return '"' + v.replace('"', '\\"') + '"'
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    return str(v)
doc = {"name": "cowboy", "tags": ["a", "b"], "nested": {"x": 1, "y": [1.5, None, True]}, "empty": {}, "q": 'say "hi"'}
print(dumps(doc))
