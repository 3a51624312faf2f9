print("".split(), "".split(","), " a  b ".split(" "), "a,b,".split(","), "a b c".split(None, 1))
print("a\tb\nc  d".split(), "x".split("x"), "aXbXc".split("X", 0), "1.2.3".rsplit(".", 1))
print(" x ".strip() or "empty", "xxayxx".strip("x"), "abc".lstrip("ba"), "abc".rstrip("c"))
print("a-b".partition("-"), "ab".partition("-"), "".join([]), "-".join("abc"))
