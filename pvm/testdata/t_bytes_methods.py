b = b"Hello, World"
print(b.decode(), b.hex(), b[7:], b[-1], len(b), b.decode("utf-8").upper().encode())
print(bytes.fromhex("00ff10"), bytearray(3), bytearray([1, 2]) + b"\x03", b"ab" * 2)
ba = bytearray(b"xyz")
ba[0] = ord("X")
print(ba, ba.decode(), list(ba), bytes(ba) == b"Xyz")
