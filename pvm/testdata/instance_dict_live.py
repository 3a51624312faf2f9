# An instance's __dict__ is its attribute storage, not a copy: stores and
# deletions through it are attribute stores and deletions, and the reverse.


class Point:
    def __init__(self, **kw):
        self.__dict__.update(kw)


p = Point(x=1, y=2)
print(p.x, p.y, p.__dict__)

d = p.__dict__
d["z"] = 3
print(p.z, vars(p) == d, len(d))
p.w = 4
print(d, list(d), list(d.values()), list(d.items()))
del d["x"]
print(hasattr(p, "x"), d)
vars(p)["x"] = 10
print(p.x, list(vars(p)))
p.y = 20
print(d["y"], d.get("y"), d.get("nope", "dflt"), "y" in d, "nope" in d)
print(d.pop("w"), hasattr(p, "w"), d.setdefault("q", 7), p.q)
print(d.popitem(), hasattr(p, "q"))
print(d == {"y": 20, "z": 3, "x": 10}, dict(d), {**d}, d.copy())
print(sorted(d), repr(d), str(d), bool(d), 1 in d)
print(type(d).__name__, isinstance(d, dict))
d |= {"a": 1}
print(p.a, d | {"b": 2}, p.__dict__)

# Iteration sees the live bindings; adding a name while iterating fails
# as it does for any dict.
it = iter(d)
print(next(it), next(it))
p.new = 1
try:
    next(it)
except RuntimeError as e:
    print("RuntimeError", e)
for k, v in p.__dict__.items():
    p.__dict__[k] = v  # rebinding is fine
print(p.__dict__)

# clear, and assignment and deletion of __dict__ itself.
d.clear()
print(p.__dict__, hasattr(p, "y"))
p.__dict__ = {"m": 1, "n": 2}
print(p.m, p.n, vars(p))
try:
    p.__dict__ = [("m", 1)]
except TypeError as e:
    print("TypeError", e)
del p.__dict__
print(vars(p), hasattr(p, "m"))
p.k = 5
print(vars(p))


# A descriptor that caches into the instance's __dict__ (the
# functools.cached_property idiom) computes once.
class Cached:
    def __init__(self, fn):
        self.fn = fn
        self.name = fn.__name__

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        v = self.fn(obj)
        obj.__dict__[self.name] = v
        return v


class Box:
    calls = 0

    @Cached
    def value(self):
        Box.calls += 1
        return 42


b = Box()
print(b.value, b.value, b.value, Box.calls, b.__dict__)


# __setattr__ that writes through __dict__ (a common idiom to avoid
# recursion), and __getattr__ that reads it.
class Rec:
    def __setattr__(self, name, value):
        self.__dict__[name.upper()] = value

    def __getattr__(self, name):
        try:
            return self.__dict__[name.upper()]
        except KeyError:
            raise AttributeError(name) from None


r = Rec()
r.alpha = 1
print(r.ALPHA, r.alpha, vars(r))
try:
    r.beta
except AttributeError as e:
    print("AttributeError", e)


# Subclasses of builtins and exceptions have one too.
class L(list):
    pass


lst = L([1, 2])
lst.__dict__["tag"] = "t"
print(lst.tag, lst, vars(lst))


class MyErr(Exception):
    pass


e = MyErr("m")
e.__dict__["code"] = 3
print(e.code, e.args, e.__dict__)


# A function's __dict__ is live too.
def f():
    pass


f.__dict__["attr"] = 1
print(f.attr, f.__dict__)
f.other = 2
print(f.__dict__)
del f.__dict__["attr"]
print(hasattr(f, "attr"), f.__dict__)

# Keys are looked up by value; a str subclass key finds the attribute.
class S(str):
    pass


p2 = Point(k=1)
print(p2.__dict__[S("k")], S("k") in p2.__dict__)
try:
    p2.__dict__[["x"]]
except TypeError as e:
    print("TypeError", e)
try:
    p2.__dict__.pop("missing")
except KeyError as e:
    print("KeyError", e)
print(len(p2.__dict__), p2.__dict__.keys(), reversed(list(p2.__dict__)) is not None)
