# Found by the differential fuzzer (seed 12030716): int()'s "invalid
# literal" message shows the argument's repr cut to 200 characters
# (CPython's %.200R), and bytes as bytes also with an explicit base.
for arg in ["9" * 150 + "x", "x" * 300, "ab\u00e9" * 100, "1.5", "", "  ", "1_000_", "\U0001F600" * 250]:
    for base in [None, 10, 16, 0]:
        try:
            print(int(arg) if base is None else int(arg, base))
        except ValueError as e:
            print(len(str(e)), str(e)[-40:])
for arg in [b"z" * 300, b"zz", b"\xff\x00" * 120, b"12a"]:
    for base in [None, 16, 36]:
        try:
            print(int(arg) if base is None else int(arg, base))
        except ValueError as e:
            print(len(str(e)), str(e)[-40:])
