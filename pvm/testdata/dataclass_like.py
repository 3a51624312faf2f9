class Record:
    fields = ("name", "value")
    def __init__(self, *args, **kwargs):
        for f, a in zip(self.fields, args):
            setattr(self, f, a)
        for k, v in kwargs.items():
            setattr(self, k, v)
    def __repr__(self):
        inner = ", ".join(f"{f}={getattr(self, f)!r}" for f in self.fields)
        return f"{type(self).__name__}({inner})"
    def __eq__(self, other):
        return type(self) is type(other) and all(getattr(self, f) == getattr(other, f) for f in self.fields)
    def __lt__(self, other):
        return tuple(getattr(self, f) for f in self.fields) < tuple(getattr(other, f) for f in self.fields)
rs = [Record("b", 2), Record("a", 3), Record(name="a", value=1)]
print(rs, sorted(rs), rs[0] == Record("b", 2), rs[0] == rs[1], min(rs), max(rs))
