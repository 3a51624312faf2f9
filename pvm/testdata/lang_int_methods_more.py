# int methods, conversions and arithmetic corner cases.
for n in [0, 1, 255, 256, -1, -128, 2**63, 10**30]:
    print(n, n.bit_length(), bin(n), oct(n), hex(n), n.bit_count() if hasattr(n, "bit_count") else "")
print((1024).to_bytes(2, "big"), (1024).to_bytes(4, "little"), (-2).to_bytes(2, "big", signed=True))
print(int.from_bytes(b"\x01\x00", "big"), int.from_bytes(b"\x01\x00", "little"), int.from_bytes(b"\xff\xfe", "big", signed=True))
print(int("ff", 16), int("0x1f", 0), int("0b101", 0), int("777", 8), int(" -42 "), int("1_000"), int("z", 36))
print(int(3.99), int(-3.99), int(True), int("+7"), round(2.5), round(3.5), round(-2.5), round(1234, -2), round(1250, -2))
print(7 // 2, -7 // 2, 7 // -2, 7 % 3, -7 % 3, 7 % -3, divmod(-7, 2), divmod(7, -2))
print(2 ** 10, 2 ** -1, (-2) ** 3, pow(3, 4, 5), pow(2, -1, 7), pow(10, 20), -2 ** 2)
print(1 << 70, (1 << 70) >> 68, -1 >> 5, ~5, ~-1, 6 & 3, 6 | 3, 6 ^ 3, -6 & 0xFF)
big = 3 ** 200
print(big % 1000007, len(str(big)), big // 3 ** 199, big.bit_length())
print(abs(-5), (-5).__abs__(), (5).conjugate(), (5).numerator, (5).denominator, (5).real, (5).imag)
print((255).to_bytes(1, "big"), int.from_bytes(bytes([1, 2, 3, 4]), "big") == 0x01020304)
print(max(3, 7, key=lambda v: -v), sum(range(101)), sum([10**20, 1]), 10**20 + 0.0)
print(0 == -0, 1 == 1.0, hash(1) == hash(1.0), 10**18 * 10**18 == 10**36, True + True)
print(format(10**25, ","), f"{2**64:_x}", str(-10**21), repr(10**21), int("-" + "9" * 30) + 1)
print(isinstance(True, int), int.__name__, type(10**30).__name__, (3).__index__())
for bad in [lambda: int("12a"), lambda: int("", 10), lambda: int("5", 1), lambda: (256).to_bytes(1, "big"),
            lambda: (-1).to_bytes(1, "big"), lambda: int(float("inf")), lambda: int(float("nan")),
            lambda: 1 << -1, lambda: pow(2, -1, 4), lambda: int("1.5"), lambda: int(None)]:
    try:
        bad()
    except (ValueError, OverflowError, TypeError) as e:
        print(type(e).__name__, e)
