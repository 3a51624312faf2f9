s = "héllo wörld 😀 ñ"
b = s.encode()
print(b, len(b), b.decode(), b.decode("utf-8") == s, s.encode("utf8") == b, s.encode("UTF-8") == b, s.encode("utf_8") == b)
print(s.encode(encoding="utf-8", errors="strict"), str(b, "utf-8"), str(b, encoding="utf-8"), bytes(s, "utf-8") == b)
print(bytearray(b).decode(), "".encode(), b"".decode(), "abc".encode("U8"))
for bad in [b"\xff", b"abc\x80def", b"\xe2\x28\xa1", b"\xe2\x82\x28", b"\xe2\x82", b"\xf0\x9f\x98", b"\xe0\x80\x80", b"\xed\xa0\x80",
            b"\xc0\xaf", b"\xf4\x90\x80\x80", b"ok\xf8", b"\xc3"]:
    try:
        print(bad.decode())
    except UnicodeDecodeError as e:
        print(type(e).__name__, e, isinstance(e, ValueError))
for enc in ["utf-9", "klingon", "latin-9x"]:
    for f in [lambda: "x".encode(enc), lambda: b"x".decode(enc)]:
        try:
            f()
        except LookupError as e:
            print(type(e).__name__, e)
try:
    "x".encode(5)
except TypeError as e:
    print("TypeError", e)
