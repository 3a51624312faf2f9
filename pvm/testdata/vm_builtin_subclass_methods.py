# Go methods of builtin types called on instances of their subclasses
# (list.append of an OrderedCollection(list)): LOAD_METHOD calls them with
# the instance prepended, as the bound method GetAttr makes would be.


class Coll(list):
    def extra(self):
        return len(self)


class Table(dict):
    pass


class Name(str):
    pass


class Oops(ValueError):
    pass


c = Coll()
for i in range(5):
    c.append(i * i)
c.extend([7, 8])
print(c, c.pop(), c.pop(0), c.index(4), c.count(9), c.extra())
c.append = lambda x: print("shadowed", x)
c.append(3)
del c.append
c.append(3)
print(c)
m = c.append
m(10)
print(c, callable(m))
t = Table(a=1)
for k in "abc":
    t.setdefault(k, 0)
    t[k] = t.get(k, 0) + 1
print(sorted(t.items()), t.pop("a"), len(t))
n = Name("hello world")
print(n.upper(), n.split(), n.startswith("he"), type(n.upper()).__name__)
e = Oops("bad")
print(e.args, e.with_traceback(None) is e, str(e))
try:
    list.append(3, 4)
except TypeError as err:
    print("TypeError", err)
try:
    c.append()
except TypeError as err:
    print("TypeError", err)
