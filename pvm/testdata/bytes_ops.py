b = b"hello"
print(b, len(b), b[0], b[1:3], b + b" world", b * 2, b"el" in b, 104 in b)
print(bytes([65, 66, 67]), bytes(3), bytes("hé", "utf-8"), list(b"ab"))
print(b.hex(), bytes.fromhex("48656c6c6f"), b.decode(), b"\x00\xff\n'")
ba = bytearray(b"abc")
ba.append(100)
ba[0] = 65
ba.extend(b"ef")
print(ba, len(ba), bytes(ba), ba[1], ba == b"Abcdef")
print(b"abc" < b"abd", b"a" == b"a", b"" == b"", bytearray())
