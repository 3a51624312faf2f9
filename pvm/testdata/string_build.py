parts = []
for i in range(10):
    parts.append(str(i * i))
s = ",".join(parts)
print(s, len(s), s.split(",")[3])
acc = ""
for ch in "hello":
    acc = ch + acc
print(acc)
lines = ["a", "bb", "ccc"]
print("\n".join(l.rjust(3, ".") for l in lines))
table = {"x": 1, "yy": 22}
for k, v in table.items():
    print(f"{k:>3}: {v:<4}|")
print("".join(chr(ord("a") + i) for i in range(26)))
print("=" * 20)
words = "the rain in spain".split()
print(" ".join(w.capitalize() for w in words), sorted(words, key=len))
