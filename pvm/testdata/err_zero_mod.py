values = [3, 2, 1, 0]
for v in values:
    print(10 % v)
