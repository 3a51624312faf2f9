# printf-style % formatting.
print("%d %i %u" % (42, -7, 3), "%5d|%-5d|%05d|%+d|% d" % (42, 42, 42, 42, 42))
print("%x %X %#x %#X %o %#o" % (255, 255, 255, 255, 8, 8))
print("%f %.2f %10.3f|%-10.1f|%e %.3E %g %G" % (3.14159, 2.675, 1.5, -1.25, 12345.6789, 0.00012, 1e-5, 1e20))
print("%s %r %a %s" % ("str", "str", "é", [1, "x"]), "%c%c%c" % (67, 119, "b"))
print("%(name)s owes %(amt).2f" % {"name": "bob", "amt": 12.5}, "%%d" % (), "100%%" % ())
print("%*d|%-*s|%.*f" % (6, 42, 5, "ab", 2, 3.14159))
print("%s" % (1,), "%s" % ((1, 2),), "%s and %s" % ("a", "b"), "%s" % None, "%d" % True, "%.0f" % 2.5)
print("%.3s|%5.2s|" % ("abcdef", "xyz"), "%-6s|" % "ab", "%6s|" % "ab", "%x" % -255, "%o" % -8)
print("%d" % 3.99, "%i" % -3.5, "%s" % 1e100, "%r" % 0.1, "%e" % 0, "%g" % 100000, "%g" % 1000000)
for bad in [lambda: "%d" % "x", lambda: "%s %s" % 1, lambda: "%s" % (1, 2), lambda: "%(k)s" % 1, lambda: "%z" % 1]:
    try:
        bad()
    except (TypeError, ValueError, KeyError) as e:
        print(type(e).__name__, e)
