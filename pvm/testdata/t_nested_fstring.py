rows = [("alpha", 3.14159), ("beta", 2.71828)]
for name, val in rows:
    print(f"{name:>{max(len(n) for n, _ in rows) + 1}} = {val:.{2 + len(name) % 2}f}")
x = 255
print(f"{x:#06x} {x:08b} {x:,} {x:^9} {'hex' if x > 100 else 'dec'}")
print(f"{[1, 2][0]}{ {'a': 1}['a'] }{(lambda: 'L')()}")
