a = 2 ** 200
b = 3 ** 100
print(a, b, a * b, a // b, a % b, -a // b, a - b)
print(a.bit_length(), (a * b).bit_length(), len(str(a)), str(b)[:10])
f = 1
for i in range(1, 51):
    f *= i
print(f, f % 1000007, f // (10 ** 50))
print(pow(2, 1000, 10 ** 9 + 7), pow(3, 200, 1000), divmod(10 ** 30, 7))
print(int("1" * 50) + 1, hex(2 ** 100), bin(2 ** 70)[:10], -(2 ** 65) >> 3)
print(2 ** 64 == 18446744073709551616, 2 ** 64 > 2 ** 63, (2 ** 64) & (2 ** 64 - 1), (2 ** 64) | 1)
print(float(2 ** 80), 2 ** 80 / 2 ** 70, 10 ** 20 // 3.0)
print(sum(range(10 ** 6)) * 10 ** 10, abs(-(10 ** 25)), round(12345678901234567890, -5))
