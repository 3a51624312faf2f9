# Descriptors: __get__/__set__/__delete__ and __set_name__.


class Positive:
    def __set_name__(self, owner, name):
        self.name = "_" + name
        self.public = name

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return getattr(obj, self.name, 0)

    def __set__(self, obj, value):
        if value < 0:
            raise ValueError("%s must be >= 0, got %r" % (self.public, value))
        setattr(obj, self.name, value)

    def __delete__(self, obj):
        raise AttributeError("cannot delete " + self.public)


class Account:
    balance = Positive()
    limit = Positive()

    def __init__(self, balance, limit=100):
        self.balance = balance
        self.limit = limit


a = Account(50)
print(a.balance, a.limit, a._balance, type(Account.balance).__name__, Account.balance.public)
a.balance += 25
print(a.balance)
try:
    a.balance = -1
except ValueError as e:
    print("ValueError", e)
try:
    del a.limit
except AttributeError as e:
    print("AttributeError", e)


class Lazy:
    def __init__(self, fn):
        self.fn = fn

    def __set_name__(self, owner, name):
        self.name = name

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        value = self.fn(obj)
        obj.__dict__
        setattr(obj, self.name, value)
        return value


class Report:
    calls = 0

    def __init__(self, rows):
        self.rows = rows

    @Lazy
    def total(self):
        Report.calls += 1
        return sum(self.rows)


r = Report([1, 2, 3])
print(r.total, r.total, Report.calls)


class Const:
    def __init__(self, v):
        self.v = v

    def __get__(self, obj, objtype=None):
        return self.v * 2 if obj is not None else self.v


class Holder:
    c = Const(21)


h = Holder()
print(h.c, Holder.c)
h.__dict__
h.c = 1
print(h.c)


class Typed:
    def __init__(self, kind):
        self.kind = kind

    def __set_name__(self, owner, name):
        self.name = name

    def __get__(self, obj, objtype=None):
        return obj.__dict__.get(self.name) if obj is not None else self

    def __set__(self, obj, value):
        if not isinstance(value, self.kind):
            raise TypeError("%s must be %s" % (self.name, self.kind.__name__))
        obj.__dict__
        object.__setattr__(obj, "_" + self.name, value)


class Order:
    qty = Typed(int)


o = Order()
o.qty = 3
print(o._qty)
try:
    o.qty = "x"
except TypeError as e:
    print("TypeError", e)
