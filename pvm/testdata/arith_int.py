print(1 + 2, 7 - 10, 6 * 7, 7 / 2, 7 // 2, -7 // 2, 7 % 3, -7 % 3, 7 % -3, 2 ** 10)
print(2 ** 100, -(2 ** 70), (2 ** 64) // 3, (2 ** 64) % 1000, 10 ** 20 - 1)
print(1 << 62, 1 << 64, (1 << 100) >> 98, -1 >> 5, 5 & 3, 5 | 3, 5 ^ 3, ~5)
print(abs(-5), abs(-(2**70)), divmod(17, 5), divmod(-17, 5), pow(3, 4), pow(3, 4, 5), pow(2, -1))
print(int("42"), int("-0x1f", 16), int("0b101", 0), int("  12  "), int(3.9), int(-3.9), int(True))
print(9223372036854775807 + 1, -9223372036854775808 - 1, 3037000500 * 3037000500)
x = 10
x += 5
x *= 2
x -= 1
x //= 4
x **= 3
print(x)
print(True + True, True * 10, False - 1)
print(1 == 1.0, 2 < 3.5, 10 ** 30 > 1e29, hash(1) == hash(1.0))
print((123456789).bit_length(), (255).to_bytes(2, "big"), int.from_bytes(b"\x01\x00", "little"))
print(round(2.5), round(3.5), round(-2.5), round(1234, -2), round(1250, -2))
