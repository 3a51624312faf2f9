items = [("a", 1), ("b", None)]
print(sorted(items[:1], key=lambda kv: kv[1] + 1))
print(sorted(items, key=lambda kv: kv[1] + 1))
