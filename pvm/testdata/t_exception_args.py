e = KeyError("k", 2)
print(e.args, str(e), repr(e))
e2 = OSError("disk")
print(e2.args, str(e2))
e3 = StopIteration(42)
print(e3.value, e3.args)
class WithExtra(Exception):
    def __init__(self, a, b):
        super().__init__(a)
        self.b = b
w = WithExtra(1, 2)
print(w.args, w.b, str(w), repr(w))
