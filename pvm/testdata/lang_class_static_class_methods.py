# Alternative constructors, static helpers and class-level registries.
class Amount:
    DECIMALS = 6
    _instances = 0

    def __init__(self, units):
        self.units = units
        type(self)._instances += 1

    @classmethod
    def from_str(cls, s):
        whole, _, frac = s.partition(".")
        frac = (frac + "0" * cls.DECIMALS)[:cls.DECIMALS]
        return cls(int(whole) * 10 ** cls.DECIMALS + int(frac))

    @classmethod
    def zero(cls):
        return cls(0)

    @staticmethod
    def valid(s):
        head, _, tail = s.partition(".")
        return head.isdigit() and (tail == "" or tail.isdigit())

    def __str__(self):
        q, r = divmod(self.units, 10 ** self.DECIMALS)
        return f"{q}.{r:0{self.DECIMALS}d}"

    def __repr__(self):
        return f"{type(self).__name__}({self.units})"


class Gwei(Amount):
    DECIMALS = 9


print(Amount.from_str("1.5"), Gwei.from_str("1.5"), repr(Gwei.zero()), Amount.valid("12.34"), Amount.valid("1.2.3"))
print(Amount._instances, Gwei._instances, Amount.from_str("0.000001").units, str(Amount(123)))
print(Gwei.valid("7"), Gwei().valid("x") if False else "skip", type(Gwei.from_str("2")).__name__)
m = Amount.from_str
print(m("3").units, Gwei.from_str.__self__ is Gwei if hasattr(Gwei.from_str, "__self__") else True)
print([str(Amount.from_str(s)) for s in ["0", "10", "0.1", "123.456789"] if Amount.valid(s)])
