# Float formatting against CPython 3.11: repr/str, format() with every
# presentation type, width, alignment, fill, sign, z, #, 0, grouping and
# precision, f-strings, str.format and %-formatting.
values = [0.0, -0.0, 1.0, -1.0, 0.1, 2.5, -2.5, 0.125, 0.375, 1.5e-7, 123456.789, -9876543.21,
          1e16, 1e22, 1.7976931348623157e308, 5e-324, 2.2250738585072014e-308, 1 / 3,
          float("inf"), float("-inf"), float("nan"), 0.0005, 999999.5, 9.9999999, 1e-4, 12345678901234567890.0]
specs = ["", "e", "E", ".0e", ".3e", ".20e", "f", "F", ".0f", ".2f", ".10f", "g", "G", ".0g", ".1g", ".3g", ".17g",
         "%", ".1%", ".0%", "n", ".3n", ".2", ".5", "10", "<12", ">12", "^12", "*^13.2f", "=+12.3f", "+", " ",
         "-", "z", "z.1f", "z.0f", "#", "#.0f", "#.0e", "#g", "#.3g", "010.2f", "08", ",", "_", ",.2f", "_.3e",
         "015,.2f", "020_.4f", "0=15,.1f", "+015,.1f", ",g", "12,.0f", ">20,", "#x" if False else "e"]
for v in values:
    print(repr(v), str(v), " | ".join(format(v, s) for s in specs))
print(f"{1/3:.5f} {2.5:8.2f}| {-0.0:z.2f} {1e100:g} {1234567.891:,.2f} {0.1:!<10} {3.0!r} {3.0!s} {float('nan'):+}")
print("{:e} {:>10.3f} {:_} {0.5:%}".replace("{0.5:%}", "{:%}").format(12345.6789, 3.14159, 1e20, 0.5))
print("%f %e %g %.3f %10.2e %-10.1f| %+g % g %#.0f %#g %G %E %F %05.1f %.0e" % (
    1.0005, 12345.678, 1e-5, 2.0005, 3.5, 2.25, 3.0, 4.0, 2.0, 1.0, 1e-10, 1.5e300, float("inf"), -2.5, 0.5))
print("%s %r %d %i %x" % (0.1, 0.1, 3.99, -3.99, 255))
print("%(a).2f %(b)s" % {"a": 2.345, "b": 1e-7})
for bad in ["d", "x", "s", "c", "b", ",n", "=^", "+z5d"]:
    try:
        print(format(1.5, bad))
    except ValueError as e:
        print("ValueError", e)
print(str(1e15), str(1e16), str(123.0), str(-1e-5), str(0.0001), str(1.0000000000000002), str(2 ** 0.5))
print(format(1e300 * 10, "f"), format(-1e300 * 10, "+.2e"), format(float("nan"), "F"), format(float("-inf"), "E"))
print(format(2.675, ".2f"), format(0.5, ".0f"), format(1.5, ".0f"), format(2.5, ".0f"), format(1e23, ".0f"), format(5e-324, ".3g"), format(5e-324, ".400f")[-30:])
for v, s in [(5, "z"), (5, "zd"), ("a", "z"), (5, "z.2f"), (-0.0001, "z.2e"), (-0.0, "z"), (-0.0, "z.3g")]:
    try:
        print(repr(format(v, s)))
    except ValueError as e:
        print("ValueError", e)
