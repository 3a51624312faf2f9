import struct

for fmt in ["@bhiq", "=bhiq", "@bq", "@lLnNP", "<lL", " 3h ", "@ci", "@c?d", "<2s3p", ">h?3s", "!Q", "", "@qb", "10x"]:
    print(repr(fmt), struct.calcsize(fmt))
print(struct.calcsize(b"<h"))

print(struct.pack("<b", -128), struct.pack("<B", 255), struct.pack("<h", -2), struct.pack(">h", -2), struct.pack("!H", 65535))
print(struct.pack("<i", -2**31), struct.pack(">I", 2**32 - 1), struct.pack("<q", -1), struct.pack(">Q", 2**64 - 1))
print(struct.pack("@bi", 1, 2), struct.pack("@?e", 1, 2), struct.pack("@lN", -5, 7), struct.pack("=l", 3))
print(struct.pack(">h?3s", 1, 5, b"hi"), struct.pack("5s", b"ab"), struct.pack("2s", b"abcd"), struct.pack("0s", b"zz"))
print(struct.pack("5p", b"ab"), struct.pack("p", b"ab"), struct.pack("300p", b"a" * 300)[:3], len(struct.pack("300p", b"a" * 300)))
print(struct.pack("c", b"z"), struct.pack("3c", b"a", b"b", b"c"), struct.pack("?", []), struct.pack("?", "x"), struct.pack("x"), struct.pack("3x"))
print(struct.pack("i", True), struct.pack("<d", 1), struct.pack("<d", -0.0), struct.pack(">d", 0.1))
for x in [0.1, 1.5, -2.25, 1e-46, 7e-46, 1e-45, 3.4028235e38 * 1.00000001, 3.40282356e38, float("inf"), -float("inf"), 1e-40, 16777217.0, 0.3333333333333333]:
    b = struct.pack("<f", x)
    print(repr(x), b, struct.unpack("<f", b))
for x in [0.5, 1e-8, 3e-8, 2.9e-8, 65519.0, 1.0009765625, 1.00048828125, 1.00146484375, 6.1e-5, -3.0, 0.333]:
    b = struct.pack("<e", x)
    print(repr(x), b, struct.unpack("<e", b))
print(struct.pack("<e", float("nan")), struct.pack("<e", -float("nan")), struct.pack("<f", float("nan")))
print(struct.unpack("<2e", b"\x00\x7c\x01\x7c"), struct.unpack("<f", b"\x00\x00\x80\x7f"), struct.unpack("<e", b"\x01\x00"))

print(struct.unpack("<h", b"ab"), struct.unpack("<?", b"\x02"), struct.unpack(">Q", b"\xff" * 8), struct.unpack("5p", b"\x09abcd"))
print(struct.unpack("<3s2x2c", b"abcdefg"), struct.unpack("!h", b"\xff\xfe"), struct.unpack("<bBhHiIqQ", struct.pack("<bBhHiIqQ", -1, 1, -2, 2, -3, 3, -4, 4)))
print(struct.unpack("@bq", struct.pack("@bq", 7, -9)), struct.unpack("@lLnN", struct.pack("@lLnN", -1, 2**64 - 1, -3, 4)))
print(list(struct.iter_unpack("<h", b"abcd")), struct.unpack_from("<h", b"abcd", 1), struct.unpack_from("<h", b"abcd", offset=-2))
print(struct.unpack_from("<h", bytearray(b"xyz")), struct.unpack(">I", bytearray(b"\x00\x00\x01\x00")))
buf = bytearray(8)
struct.pack_into("<hh", buf, 2, 1, -1)
struct.pack_into(">h", buf, -2, 258)
print(buf)

s = struct.Struct("<hi")
print(s.size, s.format, s.pack(1, 2), s.unpack(b"\x01\x00\x02\x00\x00\x00"), s.unpack_from(b"\x00\x01\x00\x02\x00\x00\x00", 1))
print(list(s.iter_unpack(s.pack(1, 2) + s.pack(3, 4))), struct.Struct(b"<h").format, type(s).__name__)
b2 = bytearray(6)
s.pack_into(b2, 0, 7, 8)
print(b2)

errs = [
    ("struct.calcsize('<n')", lambda: struct.calcsize('<n')),
    ("struct.calcsize('3 h')", lambda: struct.calcsize('3 h')),
    ("struct.calcsize('3')", lambda: struct.calcsize('3')),
    ("struct.calcsize('z')", lambda: struct.calcsize('z')),
    ("struct.calcsize('hh<')", lambda: struct.calcsize('hh<')),
    ("struct.pack('<b', 128)", lambda: struct.pack('<b', 128)),
    ("struct.pack('<B', -1)", lambda: struct.pack('<B', -1)),
    ("struct.pack('<h', 40000)", lambda: struct.pack('<h', 40000)),
    ("struct.pack('<H', -1)", lambda: struct.pack('<H', -1)),
    ("struct.pack('<i', 2**31)", lambda: struct.pack('<i', 2**31)),
    ("struct.pack('<I', -1)", lambda: struct.pack('<I', -1)),
    ("struct.pack('<l', 2**31)", lambda: struct.pack('<l', 2**31)),
    ("struct.pack('<L', 2**32)", lambda: struct.pack('<L', 2**32)),
    ("struct.pack('<q', 2**63)", lambda: struct.pack('<q', 2**63)),
    ("struct.pack('<Q', -1)", lambda: struct.pack('<Q', -1)),
    ("struct.pack('@l', 2**63)", lambda: struct.pack('@l', 2**63)),
    ("struct.pack('@L', -1)", lambda: struct.pack('@L', -1)),
    ("struct.pack('@n', 2**63)", lambda: struct.pack('@n', 2**63)),
    ("struct.pack('@N', -1)", lambda: struct.pack('@N', -1)),
    ("struct.pack('@i', 2**31)", lambda: struct.pack('@i', 2**31)),
    ("struct.pack('@I', 2**32)", lambda: struct.pack('@I', 2**32)),
    ("struct.pack('<H', 2**70)", lambda: struct.pack('<H', 2**70)),
    ("struct.pack('<h', -2**63)", lambda: struct.pack('<h', -2**63)),
    ("struct.pack('<B', 2**70)", lambda: struct.pack('<B', 2**70)),
    ("struct.pack('<q', 2**64)", lambda: struct.pack('<q', 2**64)),
    ("struct.pack('<i', 1.5)", lambda: struct.pack('<i', 1.5)),
    ("struct.pack('<i', '1')", lambda: struct.pack('<i', '1')),
    ("struct.pack('<i', None)", lambda: struct.pack('<i', None)),
    ("struct.pack('<f', 'x')", lambda: struct.pack('<f', 'x')),
    ("struct.pack('<f', 1e300)", lambda: struct.pack('<f', 1e300)),
    ("struct.pack('<e', 1e10)", lambda: struct.pack('<e', 1e10)),
    ("struct.pack('<e', 65520.0)", lambda: struct.pack('<e', 65520.0)),
    ("struct.pack('<f', 3.4028235677973366e+38)", lambda: struct.pack('<f', 3.4028235677973366e+38)),
    ("struct.pack('<f', 10**400)", lambda: struct.pack('<f', 10**400)),
    ("struct.pack('c', b'ab')", lambda: struct.pack('c', b'ab')),
    ("struct.pack('c', 'a')", lambda: struct.pack('c', 'a')),
    ("struct.pack('s', 'a')", lambda: struct.pack('s', 'a')),
    ("struct.pack('<hh', 1)", lambda: struct.pack('<hh', 1)),
    ("struct.pack('<h', 1, 2)", lambda: struct.pack('<h', 1, 2)),
    ("struct.pack('<0s')", lambda: struct.pack('<0s')),
    ("struct.unpack('<h', b'a')", lambda: struct.unpack('<h', b'a')),
    ("struct.iter_unpack('<h', b'abc')", lambda: struct.iter_unpack('<h', b'abc')),
    ("struct.iter_unpack('', b'')", lambda: struct.iter_unpack('', b'')),
    ("struct.unpack_from('<i', b'ab', 0)", lambda: struct.unpack_from('<i', b'ab', 0)),
    ("struct.unpack_from('<h', b'abcd', 3)", lambda: struct.unpack_from('<h', b'abcd', 3)),
    ("struct.unpack_from('<h', b'abcd', -1)", lambda: struct.unpack_from('<h', b'abcd', -1)),
    ("struct.unpack_from('<h', b'abcd', offset=-5)", lambda: struct.unpack_from('<h', b'abcd', offset=-5)),
    ("struct.pack_into('<h', bytearray(5), 4, 1)", lambda: struct.pack_into('<h', bytearray(5), 4, 1)),
    ("struct.pack_into('<h', bytearray(5), -1, 1)", lambda: struct.pack_into('<h', bytearray(5), -1, 1)),
    ("struct.pack_into('<h', bytearray(5), -10, 1)", lambda: struct.pack_into('<h', bytearray(5), -10, 1)),
    ("struct.pack_into('<h', b'12345', 0, 1)", lambda: struct.pack_into('<h', b'12345', 0, 1)),
    ("struct.pack_into('<h', bytearray(5), 0)", lambda: struct.pack_into('<h', bytearray(5), 0)),
    ("struct.pack(1)", lambda: struct.pack(1)),
    ("struct.unpack('<h', 'ab')", lambda: struct.unpack('<h', 'ab')),
    ("struct.unpack('<h', 5)", lambda: struct.unpack('<h', 5)),
    ("struct.calcsize('9999999999999999999h')", lambda: struct.calcsize('9999999999999999999h')),
]
for text, f in errs:
    try:
        print(text, "->", f())
    except (struct.error, TypeError, OverflowError) as x:
        print(text, "->", type(x).__name__, x)
print(issubclass(struct.error, Exception), struct.error.__module__)
