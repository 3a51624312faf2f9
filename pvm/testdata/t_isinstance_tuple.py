vals = [1, 1.5, "s", b"b", [1], (1,), {1: 2}, {1}, None, True, range(1)]
for v in vals:
    print(type(v).__name__, isinstance(v, (int, float)), isinstance(v, (list, tuple)), isinstance(v, object))
