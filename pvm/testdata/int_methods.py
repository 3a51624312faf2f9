n = 1234
print(n.bit_length(), (-n).bit_length(), (0).bit_length(), n.to_bytes(4, "big"), n.to_bytes(2, "little"))
print(int.from_bytes(b"\xff\xff", "big", signed=True), int.from_bytes(b"\x00\x10", "big"), (-1).to_bytes(2, "big", signed=True))
print(n.real, n.imag, n.numerator, n.denominator, n.conjugate(), (3.5).real, (3.5).imag)
print(int("1_000"), 1_000_000, 0b1010, 0o17, 0xFF, 1e3, 1_0.5)
print(isinstance(n, int), type(n) is int, int.__name__, (255).to_bytes(1, "big").hex())
print((2 ** 100).to_bytes(13, "big").hex(), int.from_bytes(bytes(range(10)), "little"))
