# Dunder methods called by name on builtin values, via the types' method
# tables: each runs the protocol operation the syntax stands for.

tests = [
    ("[1, 2].__iter__().__next__()", lambda: [1, 2].__iter__().__next__()),
    ("[].__len__()", lambda: [].__len__()),
    ("[3, 4].__getitem__(1)", lambda: [3, 4].__getitem__(1)),
    ("(1).__add__(2)", lambda: (1).__add__(2)),
    ("(1).__radd__(2)", lambda: (1).__radd__(2)),
    ("(1).__add__(2.5)", lambda: (1).__add__(2.5)),
    ("'a'.__len__()", lambda: 'a'.__len__()),
    ("'ab'.__getitem__(0)", lambda: 'ab'.__getitem__(0)),
    ("'a'.__add__('b')", lambda: 'a'.__add__('b')),
    ("'a'.__mul__(3)", lambda: 'a'.__mul__(3)),
    ("'a'.__contains__('a')", lambda: 'a'.__contains__('a')),
    ("{'k': 1}.__getitem__('k')", lambda: {'k': 1}.__getitem__('k')),
    ("{'k': 1}.__contains__('k')", lambda: {'k': 1}.__contains__('k')),
    ("{'k': 1}.__len__()", lambda: {'k': 1}.__len__()),
    ("{'k': 1}.__iter__().__next__()", lambda: {'k': 1}.__iter__().__next__()),
    ("bytearray(b'ab').__len__()", lambda: bytearray(b'ab').__len__()),
    ("bytearray(b'ab').__getitem__(0)", lambda: bytearray(b'ab').__getitem__(0)),
    ("b'ab'.__getitem__(1)", lambda: b'ab'.__getitem__(1)),
    ("range(5).__len__()", lambda: range(5).__len__()),
    ("range(5).__getitem__(2)", lambda: range(5).__getitem__(2)),
    ("range(5).__iter__().__next__()", lambda: range(5).__iter__().__next__()),
    ("range(5).__contains__(3)", lambda: range(5).__contains__(3)),
    ("(1, 2).__len__()", lambda: (1, 2).__len__()),
    ("(1, 2).__getitem__(0)", lambda: (1, 2).__getitem__(0)),
    ("(1, 2).__iter__().__next__()", lambda: (1, 2).__iter__().__next__()),
    ("{1, 2}.__len__()", lambda: {1, 2}.__len__()),
    ("{1, 2}.__contains__(1)", lambda: {1, 2}.__contains__(1)),
    ("{1, 2}.__or__({3})", lambda: {1, 2}.__or__({3})),
    ("(1.5).__mul__(2)", lambda: (1.5).__mul__(2)),
    ("(5).__neg__()", lambda: (5).__neg__()),
    ("(5).__bool__()", lambda: (5).__bool__()),
    ("(0.0).__bool__()", lambda: (0.0).__bool__()),
    ("True.__and__(False)", lambda: True.__and__(False)),
    ("(3).__eq__(3)", lambda: (3).__eq__(3)),
    ("(3).__lt__(4)", lambda: (3).__lt__(4)),
    ("(3).__hash__() == hash(3)", lambda: (3).__hash__() == hash(3)),
    ("'x'.__eq__('x')", lambda: 'x'.__eq__('x')),
    ("'x'.__ne__('y')", lambda: 'x'.__ne__('y')),
    ("[1].__eq__([1])", lambda: [1].__eq__([1])),
    ("None.__eq__(None)", lambda: None.__eq__(None)),
    ("None.__bool__()", lambda: None.__bool__()),
    ("iter([1]).__iter__() is not None", lambda: iter([1]).__iter__() is not None),
    ("(x for x in [1]).__next__()", lambda: (x for x in [1]).__next__()),
    ("reversed([1, 2]).__next__()", lambda: reversed([1, 2]).__next__()),
    ("enumerate('ab').__next__()", lambda: enumerate('ab').__next__()),
    ("zip([1], [2]).__next__()", lambda: zip([1], [2]).__next__()),
    ("map(str, [1]).__next__()", lambda: map(str, [1]).__next__()),
    ("filter(None, [0, 1]).__next__()", lambda: filter(None, [0, 1]).__next__()),
    ("{'a': 1}.keys().__len__()", lambda: {'a': 1}.keys().__len__()),
    ("{'a': 1}.keys().__iter__().__next__()", lambda: {'a': 1}.keys().__iter__().__next__()),
    ("{'a': 1}.items().__contains__(('a', 1))", lambda: {'a': 1}.items().__contains__(('a', 1))),
    ("{'a': 1}.values().__iter__().__next__()", lambda: {'a': 1}.values().__iter__().__next__()),
    ("[1, 2].__reversed__().__next__()", lambda: [1, 2].__reversed__().__next__()),
    ("[1, 2].__mul__(2)", lambda: [1, 2].__mul__(2)),
    ("[1, 2].__rmul__(2)", lambda: [1, 2].__rmul__(2)),
    ("[1, 2].__add__([3])", lambda: [1, 2].__add__([3])),
    ("(7).__floordiv__(2)", lambda: (7).__floordiv__(2)),
    ("(7).__mod__(2)", lambda: (7).__mod__(2)),
    ("(7).__pow__(2)", lambda: (7).__pow__(2)),
    ("(7).__rpow__(2)", lambda: (7).__rpow__(2)),
    ("(7).__truediv__(2)", lambda: (7).__truediv__(2)),
    ("(7).__index__()", lambda: (7).__index__()),
    ("(7).__int__()", lambda: (7).__int__()),
    ("(7.5).__int__()", lambda: (7.5).__int__()),
    ("(7).__float__()", lambda: (7).__float__()),
    ("(7).__abs__()", lambda: (7).__abs__()),
    ("(7).__invert__()", lambda: (7).__invert__()),
    ("(7).__repr__()", lambda: (7).__repr__()),
    ("(7).__str__()", lambda: (7).__str__()),
    ("'x'.__repr__()", lambda: 'x'.__repr__()),
    ("[1].__repr__()", lambda: [1].__repr__()),
    ("[1].__str__()", lambda: [1].__str__()),
    ("(2.5).__round__()", lambda: (2.5).__round__()),
    ("(7).__round__(-1)", lambda: (7).__round__(-1)),
    ("(7).__format__('03d')", lambda: (7).__format__('03d')),
    ("(7).__add__('x')", lambda: (7).__add__('x')),
    ("'x'.__add__(1)", lambda: 'x'.__add__(1)),
    ("[].__add__(())", lambda: [].__add__(())),
    ("(1).__lt__('x')", lambda: (1).__lt__('x')),
    ("'abc'.__iter__().__next__()", lambda: 'abc'.__iter__().__next__()),
    ("'abc'.__hash__() == hash('abc')", lambda: 'abc'.__hash__() == hash('abc')),
    ("frozenset([1]).__hash__() == hash(frozenset([1]))", lambda: frozenset([1]).__hash__() == hash(frozenset([1]))),
    ("(7).__divmod__(2)", lambda: (7).__divmod__(2)),
    ("(7).__rdivmod__(2)", lambda: (7).__rdivmod__(2)),
    ("(7).__trunc__()", lambda: (7).__trunc__()),
    ("(7.7).__trunc__()", lambda: (7.7).__trunc__()),
    ("(7.7).__floor__()", lambda: (7.7).__floor__()),
    ("(7.2).__ceil__()", lambda: (7.2).__ceil__()),
    ("(7).__ge__(7)", lambda: (7).__ge__(7)),
    ("(7).__bool__()", lambda: (7).__bool__()),
    ("b'ab'.__len__()", lambda: b'ab'.__len__()),
    ("b'ab'.__add__(b'c')", lambda: b'ab'.__add__(b'c')),
    ("b'ab'.__contains__(97)", lambda: b'ab'.__contains__(97)),
    ("slice(1, 2).__eq__(slice(1, 2))", lambda: slice(1, 2).__eq__(slice(1, 2))),
    ("bytearray(b'a').__add__(b'b')", lambda: bytearray(b'a').__add__(b'b')),
    ("bytearray(b'ab').__contains__(98)", lambda: bytearray(b'ab').__contains__(98)),
    ("bytearray(b'ab').__eq__(b'ab')", lambda: bytearray(b'ab').__eq__(b'ab')),
    ("bytearray(b'ab').__iter__().__next__()", lambda: bytearray(b'ab').__iter__().__next__()),
    ("'%s'.__mod__(5)", lambda: '%s'.__mod__(5)),
    ("[1, 2].__contains__(2)", lambda: [1, 2].__contains__(2)),
    ("{1: 2}.__eq__({1: 2})", lambda: {1: 2}.__eq__({1: 2})),
    ("{1: 2}.__or__({3: 4})", lambda: {1: 2}.__or__({3: 4})),
]
for t, f in tests:
    try:
        print(t, "->", repr(f()))
    except Exception as e:
        print(t, "!!", type(e).__name__, e)

ba = bytearray(b"abc")
ba.__setitem__(0, 65)
ba.__delitem__(2)
print(ba, ba.__getitem__(slice(0, 1)), ba.__iadd__(b"!"), ba)
lst = [1, 2, 3]
lst.__setitem__(0, 9)
lst.__delitem__(1)
print(lst, lst.__iadd__([4]), lst.__imul__(2))
d = {}
d.__setitem__("a", 1)
print(d, d.__getitem__("a"), d.__len__(), d.__contains__("b"))
try:
    d.__getitem__("zz")
except KeyError as e:
    print("KeyError", e)
try:
    d.__delitem__("zz")
except KeyError as e:
    print("KeyError", e)

# Unbound, through the class.
print(range.__len__(range(7)), bytearray.__len__(ba), list.__reversed__([1, 2]).__next__())
print(hasattr([], "__iter__"), hasattr(5, "__len__"), hasattr(iter([]), "__next__"), hasattr(range(1), "__reversed__"))
try:
    (5).__len__()
except AttributeError as e:
    print("AttributeError", e)
try:
    range.__len__([1])
except TypeError as e:
    print("TypeError", e)

# Exhausted iterators raise StopIteration.
it = iter({"k": 1})
print(it.__next__())
try:
    it.__next__()
except StopIteration as e:
    print("StopIteration", e.args)
it = [1].__iter__()
print(it.__iter__() is it, next(it), list(it))


def gen():
    yield 1
    return "done"


g = gen()
print(g.__next__(), g.__iter__() is g)
try:
    g.__next__()
except StopIteration as e:
    print("StopIteration", e.value)

# Manual iteration protocol loop.
total = 0
it = range(5).__iter__()
while True:
    try:
        total += it.__next__()
    except StopIteration:
        break
print(total)


# Subclasses of builtin types keep the operators working.
class MyInt(int):
    pass


class MyFloat(float):
    pass


class MyStr(str):
    pass


print(MyInt(1) + 1.5, 1.5 + MyInt(1), MyInt(1) == 1.0, 1.0 == MyInt(1), MyInt(2) < 2.5)
print(MyInt(7).__add__(1), round(MyInt(5)), round(MyFloat(2.675), 2), divmod(MyInt(7), 2), divmod(MyFloat(7.5), 2))
print(MyStr("a") + "b", MyStr("a").__add__("b"), MyStr("ab").__len__())
try:
    MyStr("a") + 1
except TypeError as e:
    print("TypeError", e)
try:
    (1.0).__divmod__(0)
except ZeroDivisionError as e:
    print("ZeroDivisionError", e)
print((7).__round__(), (7.5).__round__(), (7.45).__round__(1), (-7.5).__floor__(), (-7.5).__ceil__(), (-7.5).__trunc__())
print(True.__add__(True), True.__and__(True), (3).__mul__([1]), [1].__mul__(3), [1].__rmul__(2))
