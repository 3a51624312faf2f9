# Subclassing builtin types: dict, list, str, int with overrides.
class Balances(dict):
    def __missing__(self, key):
        return 0

    def total(self):
        return sum(self.values())


b = Balances(a=5)
b["b"] += 3
print(b, b["zzz"], b.total(), isinstance(b, dict), len(b), "zzz" in b)


class History(list):
    def append(self, item):
        super().append((len(self), item))

    def latest(self):
        return self[-1][1] if self else None


h = History()
h.append("mint")
h.append("burn")
print(h, h.latest(), len(h), h[0], isinstance(h, list), History().latest())


class Symbol(str):
    def __new__(cls, s):
        return super().__new__(cls, s.upper())

    def pair(self, other):
        return f"{self}/{other}"


s = Symbol("eth")
print(s, s.pair(Symbol("usd")), len(s), s.lower(), s == "ETH", isinstance(s, str), s + "!")


class Wei(int):
    def __repr__(self):
        return f"Wei({int(self)})"

    def to_eth(self):
        return self / 10**18


w = Wei(25 * 10**17)
print(repr(w), w.to_eth(), w + 1, type(w + 1).__name__, w > 10**18, int(w) == w)


class Stack(list):
    def push(self, x):
        self.append(x)
        return self

    def peek(self):
        return self[-1]


st = Stack([1, 2]).push(3).push(4)
print(st, st.peek(), st.pop(), st, sorted(Stack([3, 1, 2])), Stack("ab"))


class CaseInsensitive(dict):
    def __setitem__(self, k, v):
        super().__setitem__(k.lower(), v)

    def __getitem__(self, k):
        return super().__getitem__(k.lower())


ci = CaseInsensitive()
ci["Key"] = 1
ci["KEY"] = 2
print(ci, ci["kEy"], len(ci))
