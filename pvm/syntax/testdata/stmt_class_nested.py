class Outer:
    class Inner:
        def f(self):
            class Local:
                pass
            return Local
    attr: int = 0
    @property
    def p(self):
        return self.attr
    @p.setter
    def p(self, v):
        self.attr = v
