# vars() of an object without __dict__, iter(v, w) with v not callable or
# raising StopIteration, ord() of a bytearray.
class A: pass
for f in [lambda: vars(5), lambda: vars(A()), lambda: iter(5, 1), lambda: ord(bytearray(b'a')), lambda: ord(bytearray(b'ab')),
          lambda: list(iter(iter([1, 2, 3]).__next__, 99)), lambda: list(iter(iter([1, 2, 3, 4]).__next__, 3))]:
    try: print(f())
    except Exception as e: print(type(e).__name__, e)
def g():
    n = 0
    def f():
        nonlocal n
        n += 1
        if n > 3:
            raise StopIteration
        return n
    return f
it = iter(g(), None)
print(list(it), list(it))
