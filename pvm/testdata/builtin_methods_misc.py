print((1.5).conjugate(), float.conjugate(2.0), b'Ab Cd'.istitle(), bytearray(b'ab cd').istitle(), b'A'.istitle(), b''.istitle(), b'AB'.istitle(), b'1A'.istitle())
print(b'abcde'.hex(':'), b'abcdef'.hex('-', 2), bytearray(b'abcde').hex(' ', -2), b'abcde'.hex(b'|', 3), b'abcde'.hex(':', 0), b'abc'.hex(':', 10), b''.hex(':'))
print(b'ab'.hex(sep=':', bytes_per_sep=-1), b'abc'.hex())
for a in [("::",), ("é",), (1,)]:
    try:
        b'abc'.hex(*a)
    except Exception as e:
        print(type(e).__name__, e)
d = {1: 2, 3: 4}
print(d.keys().isdisjoint([5]), d.keys().isdisjoint(iter([9, 3])), d.items().isdisjoint([(1, 2)]), d.items().isdisjoint([]), d.keys().isdisjoint({}))
try:
    d.keys().isdisjoint(5)
except TypeError as e:
    print(e)
print(hasattr(d.values(), "isdisjoint"))
r = range(2, 10, 3)
print(r.start, r.stop, r.step, range(5).start, range(5).step, range(-5, -20, -4).stop)
try:
    r.start = 1
except AttributeError as e:
    print("AttributeError")
print(sorted(n for n in dir(range) if not n.startswith("_")))
