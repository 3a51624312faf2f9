# Float repr, str and formatting.
vals = [0.1, 0.2, 0.1 + 0.2, 1 / 3, 2 / 3, 1e16, 1e-5, 123456789.123, 1.0, -0.0, 5e-324, 1.7976931348623157e308, 100.0, 1e22, 1e21, 0.000123]
for v in vals:
    print(repr(v), str(v), f"{v:.3f}", f"{v:.3e}", f"{v:g}", f"{v:.10g}", f"{v:10.2f}|")
print(round(2.675, 2), round(0.125, 2), round(0.375, 2), round(1.5), round(2.5), round(-0.5), round(3.14159, 3))
print(float("1e3"), float("  -2.5 "), float("inf"), float("-inf"), float("nan") != float("nan"), float("1_000.5"))
print(1.5.is_integer(), 2.0.is_integer(), (0.5).as_integer_ratio(), (0.1).as_integer_ratio()[1] == 2**55)
print(7.0 // 2, 7.5 % 2, -7.5 % 2, divmod(7.5, 2), 2 ** 0.5, 10 ** -2, 1e308 * 10, -1e308 * 10)
print(int(1e15), int(2.5e10), float(2**53) == 2**53, float(2**53 + 1) == 2**53 + 1, 0.1 * 3 == 0.3)
print(abs(-2.5), max(1.5, 2), min(-0.0, 0.0), sum([0.1] * 10), 3 * 0.1, 1.1 + 2.2)
print(f"{1234.5678:,.2f} {1234.5678:_.1f} {0.00001234:.2e} {12345678:.2e} {0.5:.0%} {-1.5:+.1f}")
print("%.2f %5.1f %-8.3f| %e %g %g %G" % (3.14159, 2.25, 1.0, 0.000123, 1e-5, 123456789.0, 1e-10))
print(format(1e100, ".3g"), format(123.456, "010.2f"), format(-123.456, "010.2f"), format(0.1, ".20f"))
print(format(1.0, "g"), format(1.0, ".0f"), format(1.5, "#.0f"), format(1.0, "#g"), format(100.0, ".2g"))
print(str(1e-4), str(1e-5), str(12345678901234567890.0), repr(1.0e15), repr(1.0e16), repr(123e-20))
print(float.fromhex("0x1.8p1") if hasattr(float, "fromhex") else 3.0, (3.0).hex() if hasattr(1.0, "hex") else "0x1.8000000000000p+1")
