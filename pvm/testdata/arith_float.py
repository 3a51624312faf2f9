print(0.1 + 0.2, 1.0, 1e16, 1e-5, 1.5e300 * 10, 3.0 / 2, 7.5 // 2, -7.5 % 2)
print(float("1.5"), float("inf"), float("-inf"), float(" 3 "), 1 / 3, 2 / 3)
print(round(2.675, 2), round(1.5), round(0.5), round(-0.5), round(3.14159, 3))
print(abs(-2.5), 2 ** 0.5, 10 ** -2, 1e308 * 10, -1e308 * 10)
print(float(10 ** 20), 123456789.0 * 1000, 1.0e15, 1.0e16, 12345.678)
print(int(1e18), (0.5).is_integer(), (2.0).is_integer(), (0.75).as_integer_ratio())
print(3 * 1.1, 100.0, -0.0, 5e-324, 1.7976931348623157e308)
x = 1.5
x += 1
x /= 2
print(x)
