class Base:
    @property
    def name(self):
        return "base"
    def describe(self):
        return f"I am {self.name}"
class Child(Base):
    @property
    def name(self):
        return "child of " + super().name
print(Base().describe(), Child().describe())
