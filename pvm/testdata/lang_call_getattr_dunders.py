# __call__, __getattr__, __setattr__, __delattr__ and attribute lookup order.
class Config:
    def __init__(self, **values):
        object.__setattr__(self, "_values", dict(values))
        object.__setattr__(self, "_log", [])

    def __getattr__(self, name):
        self._log.append(f"get {name}")
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(f"no setting {name!r}") from None

    def __setattr__(self, name, value):
        if name.startswith("_"):
            raise AttributeError("private")
        self._log.append(f"set {name}")
        self._values[name] = value

    def __delattr__(self, name):
        self._log.append(f"del {name}")
        del self._values[name]

    def __call__(self, key, default=None):
        return self._values.get(key, default)


c = Config(fee=3, name="main")
print(c.fee, c.name, c("fee"), c("nope", "dflt"))
c.fee = 5
print(c.fee, getattr(c, "missing", "fallback"), hasattr(c, "name"), hasattr(c, "zzz"))
del c.name
try:
    c.name
except AttributeError as e:
    print("AttributeError:", e)
try:
    c._secret = 1
except AttributeError as e:
    print("AttributeError:", e)
print(c._log)


class Counter:
    calls = 0

    def __call__(self, *args, **kwargs):
        Counter.calls += 1
        return len(args) + len(kwargs)


count = Counter()
print(count(1, 2, x=3), count(), Counter.calls, callable(count), callable(Counter), callable(5))
print(list(map(count, [1, 2], [3, 4])), sorted([3, 1, 2], key=Counter()))


class Proxy:
    def __init__(self, target):
        self._target = target

    def __getattr__(self, name):
        attr = getattr(self._target, name)
        if callable(attr):
            def wrapped(*a, **k):
                return ("proxied", name, attr(*a, **k))
            return wrapped
        return attr


p = Proxy([3, 1, 2])
print(p.count(1), p.index(2), p.__class__.__name__)
p2 = Proxy("hello")
print(p2.upper(), p2.split("l"))


class Defaults:
    color = "red"

    def __init__(self):
        self.size = 1


d = Defaults()
print(d.color, d.size, "color" in vars(d), "size" in vars(d))
d.color = "blue"
print(d.color, Defaults.color, vars(d))
del d.color
print(d.color)
