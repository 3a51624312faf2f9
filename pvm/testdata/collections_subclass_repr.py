# The repr of a subclass of OrderedDict, defaultdict or Counter names the
# subclass, as CPython's (they use the type's name). deque subclasses do
# not yet: docs/decisions.md lists it among the open differences.
from collections import OrderedDict, defaultdict, Counter


class O(OrderedDict):
    pass


class F(defaultdict):
    pass


class C(Counter):
    pass


print(repr(O(a=1)), repr(O()), str(O(b=2)))
print(repr(F(int, a=1)), repr(F()), repr(F(list)))
print(repr(C("aab")), repr(C()), str(C(x=3)))
print(repr(OrderedDict(a=1)), repr(defaultdict(list)), repr(Counter("ab")))


# A subclass of a subclass is named by its own class.
class O2(O):
    pass


class C2(C):
    pass


print(repr(O2(z=0)), repr(C2("zz")), f"{O2()!r} {C2()}")


# A subclass's own __repr__ wins, and is inherited.
class W(OrderedDict):
    def __repr__(self):
        return "W!"


class V(W):
    pass


print(repr(W()), repr(V()), str(V()), [V()])


# Nested: each level is named by its own class.
print(repr(O(inner=C("a"))), repr(F(None, k=O())))
