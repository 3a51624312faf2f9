class Cached:
    def __init__(self):
        self._v = None
        self.computes = 0
    @property
    def value(self):
        if self._v is None:
            self.computes += 1
            self._v = 42
        return self._v
    @value.deleter
    def value(self):
        self._v = None
c = Cached()
print(c.value, c.value, c.computes)
del c.value
print(c.value, c.computes)
