# f-strings: conversions, '=', nested specs, alignment, numbers.
name, qty, price = "widget", 7, 3.14159
width, prec = 12, 3
print(f"{name!r} {name!s} {name!a} {'é'!a}")
print(f"{qty=} {price=:.2f} {name=!r} {qty * 2 = }")
print(f"[{name:>{width}}] [{name:<{width}}] [{name:^{width}}] [{name:*^{width}}]")
print(f"{price:{width}.{prec}f}|{price:<{width}.{prec}e}|{price:^+{width}.{prec}g}|")
print(f"{qty:05d} {qty:+d} {-qty: d} {qty:x} {255:#x} {255:#o} {5:#b} {255:X} {255:#010b}")
print(f"{1234567:,} {1234567:_} {0xFFFF:_x} {1234567.891:,.2f} {-1234.5:=+12,.1f}")
print(f"{0.5:%} {0.125:.1%} {1/3:.4} {2/3:.3g} {1e-7:g} {1e16:g} {123456789.0:e}")
print(f"{3.0} {1e22} {1e-5} {-0.0} {float('inf')} {float('nan')} {2.5:.0f} {3.5:.0f}")
print(f"{'abc':.2} {'abc':5.1}| {True} {True:d} {None!r} {[1, 'a']} {(1,)} {{'k': 1}}")
items = [("apple", 1.5, 3), ("kiwi", 0.25, 12), ("watermelon", 4.0, 1)]
for n, p, q in items:
    print(f"{n:<12}{p:>8.2f}{q:>4d}{p * q:>10.3f}")
print(f"{'total':<12}{sum(p * q for _, p, q in items):>22.3f}")
d = {"k": "v", 1: "one"}
print(f"{d['k']} {d[1]} {items[0][0].upper()} {len(items)!r:>3}")
print(f"{'nested ' + f'{qty:03}'}")
print(f"{qty if qty > 5 else 0} {'yes' if price else 'no'} {(lambda x: x * 2)(4)}")


class Fmt:
    def __format__(self, spec):
        return f"<Fmt {spec or 'default'}>"

    def __repr__(self):
        return "Fmt()"

    def __str__(self):
        return "fmt-str"


f = Fmt()
print(f"{f} {f:xyz} {f!r} {f!s} {format(f, 'abc')}")
print("{0:>5}|{1:<5}|{0}".format("a", "b"), "{name}-{n:03d}".format(name="x", n=7), "{:,}".format(10**9))
print("{0[1]} {1.real} {k[z]}".format([5, 6], 3, k={"z": "zz"}), format(3.14159, ".2f"), format(42, "b"))
print(f"{'line1'}\n{'line2'}", f"{'tab'}\t|")
print(f"{10:{'>' if qty else '<'}{width}}")
