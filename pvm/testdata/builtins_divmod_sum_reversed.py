# divmod by __divmod__/__rdivmod__ only (no fallback to // and %), int and
# float subclasses; sum() refuses a bytearray start; reversed() of a
# bytearray, and of an object with __len__ and __iter__ but no __getitem__.
class D:
    def __rdivmod__(self, other):
        return ("rdivmod", other)
class F:
    def __floordiv__(self, o): return 1
    def __mod__(self, o): return 2
class LI:
    def __len__(self): return 2
    def __iter__(self): return iter([1, 2])
def gen():
    yield 1
for f in [lambda: sum([b'a'], bytearray()), lambda: list(reversed(bytearray(b'ab'))), lambda: divmod(5, D()), lambda: divmod(F(), 5),
          lambda: reversed(LI()), lambda: sum([1], b''), lambda: sum(['a'], ''), lambda: sum([[1]], [])]:
    try: print(f())
    except Exception as e: print(type(e).__name__, e)
class J(int):
    pass
class Fl(float):
    pass
class K(int):
    def __rdivmod__(self, o): return "K.r"
for f in [lambda: divmod(J(7), 2), lambda: divmod(7, J(2)), lambda: divmod(J(7), J(2)), lambda: divmod(2.5, J(1)), lambda: divmod(J(1), 'x'),
          lambda: divmod(Fl(7.5), 2), lambda: divmod(J(7), K(2)), lambda: divmod(7, K(2)), lambda: divmod(J(7), 0), lambda: divmod(Fl(1.0), 0.0),
          lambda: divmod(True, J(2)), lambda: divmod(J(-7), 2**70)]:
    try: print(f())
    except Exception as e: print(type(e).__name__, e)
