# bytes/bytearray construction, indexing, hex, concatenation and mutation.
b = bytes([72, 105, 33])
print(b, b[0], b[-1], b[:2], list(b), len(b), b.hex(), b"%d" % 5 if True else "", bytes(3), bytes(b"ab"))
print(b + b"?", b * 2, b"i" in b, 105 in b, b.decode(), "Hi!".encode() == b, bytes.fromhex("48 69"), b.hex() == "486921")
ba = bytearray(b"abc")
ba[0] = 65
ba += b"def"
ba.append(0x21)
ba.extend([63, 64])
print(ba, len(ba), ba[1:3], bytes(ba), ba.decode(), ba.hex(), list(ba[-3:]))
print(bytearray(2), bytearray([1, 2]) == b"\x01\x02", b"abc" < b"abd", b"b" > b"abc", sorted([b"b", b"a", b"ab"]))
print(int.from_bytes(b"\x00\x10", "big"), (4096).to_bytes(2, "big"), bytes(reversed(b"abc")), b"".join([b"a", b"b"]))
print(b"a,b,c".split(b","), b"  x  ".strip(), b"abc".upper(), b"AbC".lower(), b"abcabc".count(b"bc"), b"abc".find(b"c"))
print(b"hello".replace(b"l", b"L"), b"hello".startswith(b"he"), b"%s-%s" % (b"a", b"b"), b"x".zfill(3), b"ab".hex(":") if False else "")
print(repr(b"\x00\x7f\x80\xff'\""), repr(b"a\nb\tc\\"), bytes([0, 255]).hex(), bytearray(b"z").hex())
def setbyte(arr, v):
    arr[0] = v


for bad in [lambda: b"a"[5], lambda: bytes([1, 256]), lambda: setbyte(ba, 300), lambda: b"a" + "b", lambda: b"abc".index(b"z")]:
    try:
        bad()
    except (IndexError, ValueError, TypeError) as e:
        print(type(e).__name__, e)
