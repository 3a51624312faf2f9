name = "Ada"
n = 42
pi = 3.14159265
print(f"Hello {name}! n={n} pi={pi:.2f} {n:5d}|{n:<5}|{n:^7}|{n:>06}")
print(f"{name!r} {name!s} {n=} {pi=:.3f} {n * 2 + 1}")
print(f"{1234567:,} {1234567:_} {255:x} {255:X} {255:#x} {255:o} {5:b} {5:08b}")
print(f"{0.5:%} {0.25:.1%} {1e10:e} {12345.6789:.3e} {1.5:g} {1e20:g} {0.0001:g}")
print(f"{'abc':>10}|{'abc':*^9}|{'abcdef':.3}|{-42:+d}|{42:+d}|{42: d}")
w = 8
print(f"{n:{w}}|{pi:{w}.{3}f}|{{literal}}")
print("{} {} {}".format(1, "two", 3.0), "{1} {0}".format("a", "b"), "{x}-{y}".format(x=1, y=2))
print("{0[0]} {0[1]}".format([7, 8]), "{:>5}".format("r"), "{:.2f}".format(2 / 3))
print("%s and %d and %.2f and %r and %5s|%-5s|%05d %x %%" % ("s", 42, 1.5, "r", "ab", "cd", 42, 255))
print("%(a)s-%(b)d" % {"a": "x", "b": 3})
print(format(3.14159, ".3f"), format(42, "08b"), format("x", "^5"), format(1234.5, ","))
print(f"{3.0}", f"{1e16}", f"{-0.0}", f"{100:.2e}", f"{2**70}", f"{True}", f"{None}")
nested = {"k": [1, 2]}
print(f"{nested['k'][1]} {len(nested)} {'yes' if n > 40 else 'no'}")
