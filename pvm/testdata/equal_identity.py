# Containment, lookup and comparison of containers try identity before
# __eq__ (CPython's PyObject_RichCompareBool); the == operator does not.
class E:
    def __init__(self, name):
        self.name = name

    def __eq__(self, other):
        print("eq", self.name)
        return False

    __hash__ = object.__hash__

    def __repr__(self):
        return self.name


e = E("e")
f = E("f")
print(e == e, e != e)
print(e in [e], e in (e,), e in {e}, e in {e: 1})
print(e in [f])
print([e, f].count(e), [f, e].index(e))
lst = [f, e]
lst.remove(e)
print(lst)
print((e,) == (e,), [e] == [e], {1: e} == {1: e})
print((e, 1) < (e, 2))
d = {e: 1}
print(d[e], d.get(e), e in d.keys())
s = {e, f}
print(e in s, len(s))
s.discard(e)
print(s)
print([e] == [f])
