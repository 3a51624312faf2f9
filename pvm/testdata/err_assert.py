x = 5
assert x == 5
assert x > 10, f"x too small: {x}"
