for ch in "ok":
    print(ch)
for v in 42:
    print(v)
