class Version:
    def __init__(self, s):
        self.parts = tuple(int(p) for p in s.split("."))
    def __eq__(self, o): return self.parts == o.parts
    def __lt__(self, o): return self.parts < o.parts
    def __le__(self, o): return self.parts <= o.parts
    def __gt__(self, o): return self.parts > o.parts
    def __ge__(self, o): return self.parts >= o.parts
    def __hash__(self): return hash(self.parts)
    def __repr__(self): return ".".join(map(str, self.parts))
vs = [Version(s) for s in ["1.10.0", "1.2.3", "1.2.10", "0.9"]]
print(sorted(vs), max(vs), min(vs), Version("1.0") == Version("1.0"), Version("1.0") != Version("1.1"))
print(Version("2.0") > Version("1.99"), Version("1.2") <= Version("1.2"), len({Version("1.0"), Version("1.0")}))
class Rev:
    def __init__(self, v): self.v = v
    def __gt__(self, o): return self.v > o.v
    def __repr__(self): return f"R{self.v}"
print(sorted([Rev(3), Rev(1), Rev(2)]))
