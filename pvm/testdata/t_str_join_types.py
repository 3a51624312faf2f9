print(", ".join(map(str, [1, 2.5, None, True])))
try:
    ", ".join([1, 2])
except TypeError as e:
    print("TypeError:", e)
print("".join(reversed("stressed")), "|".join(c * 2 for c in "abc"))
