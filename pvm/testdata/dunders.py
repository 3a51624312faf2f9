class Vec:
    def __init__(self, *xs): self.xs = list(xs)
    def __len__(self): return len(self.xs)
    def __getitem__(self, i): return self.xs[i]
    def __setitem__(self, i, v): self.xs[i] = v
    def __contains__(self, v): return v in self.xs
    def __iter__(self): return iter(self.xs)
    def __bool__(self): return bool(self.xs)
    def __repr__(self): return f"Vec{tuple(self.xs)}"
    def __str__(self): return "<" + ",".join(map(str, self.xs)) + ">"
    def __mul__(self, k): return Vec(*[x * k for x in self.xs])
    def __rmul__(self, k): return self * k
    def __neg__(self): return Vec(*[-x for x in self.xs])
    def __call__(self, i): return self.xs[i] * 100
    def __eq__(self, o): return isinstance(o, Vec) and self.xs == o.xs
    def __lt__(self, o): return sum(self.xs) < sum(o.xs)
    def __le__(self, o): return sum(self.xs) <= sum(o.xs)
v = Vec(1, 2, 3)
print(len(v), v[1], 2 in v, 7 in v, list(v), bool(v), bool(Vec()))
v[0] = 10
print(repr(v), str(v), v, v * 2, 3 * v, -v, v(1))
print(v == Vec(10, 2, 3), v != Vec(1), v < Vec(100), v > Vec(1), v <= v, v >= Vec(0))
class Ctx:
    def __enter__(self):
        print("enter")
        return self
    def __exit__(self, t, e, tb):
        print("exit", t.__name__ if t else None, e)
        return True
with Ctx() as c:
    print("body", type(c).__name__)
with Ctx():
    raise ValueError("suppressed")
print("after")
class Dyn:
    def __getattr__(self, name): return name.upper()
print(Dyn().hello, Dyn().x)
class Counter:
    def __init__(self, n): self.n = n
    def __iter__(self): return self
    def __next__(self):
        if self.n <= 0: raise StopIteration
        self.n -= 1
        return self.n
print(list(Counter(3)), [x for x in Counter(2)])
class Num:
    def __init__(self, v): self.v = v
    def __add__(self, o): return NotImplemented
    def __radd__(self, o): return f"radd {o}"
    def __iadd__(self, o):
        self.v += o
        return self
    def __hash__(self): return 7
print(1 + Num(1), hash(Num(0)))
n = Num(1)
n += 5
print(n.v)
