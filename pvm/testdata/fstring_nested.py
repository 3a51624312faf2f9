items = [("apple", 1.5, 3), ("kiwi", 0.25, 12)]
for name, price, qty in items:
    print(f"{name:<8}|{price:>6.2f}|{qty:03d}|{price * qty:>8.3f}")
width, prec = 10, 2
print(f"{3.14159:{width}.{prec}f}|{'x':>{width}}|{f'{1+1}'}")
d = {"k": "v"}
print(f"{d['k']!r:>5} {d!s} {len(d)=}")
print(f"{'nested ' + f'{42:x}'}", f"{{}}", f"{'{'}")
x = 7
print(f"{x!r} {x:b} {x:#o} {x:e} {x:.1%}")
print(f"{'left':<10}end", f"{'right':>10}end", f"{'mid':^10}end")
print(f"{-5:05d}", f"{5:+05d}", f"{1234.5:10,.1f}", f"{0.000012345:.3g}")
