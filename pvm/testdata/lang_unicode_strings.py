# Unicode strings: code points, slicing, encoding lengths, comparisons.
s = "naïve café — 東京 😀!"
print(len(s), len(s.encode()), s[6:10], s[-2], s[::-1][:3], s.upper(), s.title())
print([ord(c) for c in "é東😀"], "".join(chr(c) for c in [72, 233, 0x6771, 0x1F600]))
print(s.find("東"), s.index("😀"), s.count("é"), "é" in s, s.split(" — "), s.encode()[:8])
print(s.encode().decode() == s, "東京".encode().hex(), bytes.fromhex("e69db1").decode(), len("😀".encode()))
print(sorted(["é", "e", "z", "É", "a"]), "é" > "z", max("abcé"), min("東京"))
print(repr("é\u200b"), ascii("東"), "\N{GREEK SMALL LETTER ALPHA}" if False else "α", "α".upper(), "Ω".lower())
print("straße".lower(), "ab12".isalnum(), "٣".isdecimal(), "٣".isdigit())
print(f"{'東京':>6}|{'é':^5}|{'😀':<3}|", "東京".center(6, "*"), "é".ljust(3, "-"))
words = "über Äpfel apple Zebra éclair".split()
print(sorted(words), sorted(words, key=str.lower), [w.capitalize() for w in words])
print("a\tb\nc".split(), "x\u00a0y".split(), " \u3000 ".isspace(), "Ⅻ".isnumeric())
try:
    "é".encode("ascii")
except (UnicodeEncodeError, LookupError) as e:
    print(type(e).__name__ in ("UnicodeEncodeError", "LookupError"))
try:
    b"\xe9".decode()
except UnicodeDecodeError as e:
    print("UnicodeDecodeError", isinstance(e, ValueError))
