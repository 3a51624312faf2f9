class M:
    def __init__(self, v):
        self.v = v
    def __sub__(self, o): return M(self.v - (o.v if isinstance(o, M) else o))
    def __rsub__(self, o): return M(o - self.v)
    def __truediv__(self, o): return M(self.v / o)
    def __floordiv__(self, o): return M(self.v // o)
    def __mod__(self, o): return M(self.v % o)
    def __pow__(self, o): return M(self.v ** o)
    def __lshift__(self, o): return M(self.v << o)
    def __and__(self, o): return M(self.v & o)
    def __or__(self, o): return M(self.v | o)
    def __xor__(self, o): return M(self.v ^ o)
    def __invert__(self): return M(~self.v)
    def __pos__(self): return M(+self.v)
    def __abs__(self): return M(abs(self.v))
    def __index__(self): return self.v
    def __int__(self): return self.v
    def __float__(self): return float(self.v)
    def __repr__(self): return f"M({self.v})"
    def __len__(self): return abs(self.v)
    def __getitem__(self, k): return k * 2
    def __format__(self, spec): return f"<M {self.v:{spec}}>"
m = M(10)
print(m - 3, 20 - m, m - M(1), m / 4, m // 3, m % 3, m ** 2, m << 2, m & 6, m | 5, m ^ 3)
print(~m, +m, abs(M(-4)), len(M(-3)), m[5], m[1:2] if False else "skip", int(m), float(m))
print([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10][M(3)], hex(M(255)), f"{m:>4}", format(m, "x"))
print(bin(M(5)), range(10)[M(2)])
