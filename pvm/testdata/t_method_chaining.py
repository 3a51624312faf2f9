class Builder:
    def __init__(self):
        self.parts = []
    def add(self, p):
        self.parts.append(p)
        return self
    def sep(self, s=", "):
        self.s = s
        return self
    def build(self):
        return getattr(self, "s", " ").join(self.parts)
print(Builder().add("a").add("b").build(), Builder().sep("-").add("x").add("y").build())
print("  Hello World  ".strip().lower().replace("world", "there").title().split())
