# Building strings: join, format, padding tables, escapes, unicode.
rows = [("alice", 1200.5, 3), ("bob", 75.25, 12), ("carol-long-name", 0.5, 100)]
w = max(len(r[0]) for r in rows)
header = f"{'name':<{w}} | {'amount':>10} | {'n':>4}"
print(header)
print("-" * len(header))
for name, amt, n in rows:
    print(f"{name:<{w}} | {amt:>10,.2f} | {n:>4}")
print("=" * len(header))
parts = []
for i in range(5):
    parts.append(str(i ** 2))
print(",".join(parts), "+".join(map(str, range(3))), "".join(reversed(parts)))
print("{:^9}|{:*<6}|{:#>4}".format("mid", "l", "r"))
print("tab:\t|newline escaped: \\n| quote: \" ' |unicode: \u00e9 \u4e2d \U0001F600")
print(repr("tab:\t"), repr("\x00\x7f"), repr("é"), ascii("é中"), len("é中😀"), "😀".encode())
s = "Mississippi"
print(s.lower().count("s"), s.replace("ss", "SS", 1), s[::2], "-".join(s), s.center(17, "~"))
print("%5s|%-5s|%05d|%.3s" % ("ab", "cd", 42, "abcdef"))
line = ""
for word in "the quick brown fox jumps over the lazy dog".split():
    if len(line) + len(word) + 1 > 15:
        print(repr(line))
        line = word
    else:
        line = f"{line} {word}" if line else word
print(repr(line))
print(str(123).rjust(6, "0"), "x".join("abc"), "abc".upper().lower().title(), "a,b,,c".split(","), " a b ".split())
print("\n".join(f"{i}: {'#' * i}" for i in range(1, 4)))
print(f"{'multi'}{'ple'} " "implicit " 'concat', "raw: " + r"\d+\n")
