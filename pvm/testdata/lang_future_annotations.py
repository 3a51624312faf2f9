"""from __future__ import annotations (PEP 563): annotations are kept as
their source text, rebuilt as CPython 3.11's ast_unparse.c rebuilds it.
The x<n> lines were generated at random (valid expressions of every kind,
at depths 1-4); the expected output is CPython 3.11's."""
from __future__ import annotations, division
from __future__ import generator_stop

import __future__

# The directive is also an import: the name is bound to its _Feature.
print(annotations, __future__.annotations.compiler_flag == __future__.CO_FUTURE_ANNOTATIONS)
print(division.getOptionalRelease(), division.getMandatoryRelease())
print(__future__.all_feature_names)

# Not evaluated: names that do not exist, forward references.
undefined: NoSuchName[int] = 1
late: "Later"


class Box:
    pass


box = Box()


class Later:
    me: Later
    opt: Optional[Later] = None
    both: dict[str, list[tuple[int, ...]]]
    # A complex target is evaluated, its annotation is not.
    box.x: nothing.at.all = 3


print(undefined, __annotations__["undefined"], __annotations__["late"])
print(Later.__annotations__, box.x)

h1: f"{a!r:>{w}} {{lit}} {b=} {c:{d}.{e}}"
h2: lambda: 0
h3: lambda *a, k=1, **kw: a
h4: lambda x, /, y=2: x
h5: 1 .real
h6: 1e999 + -1e999 if False else 2.5 .real
h7: u"text"
h8: ...
h9: (1, 2)[0]
h10: -(-1) ** -2
h11: not (a or b) and (c if d else e)
h12: {**a, "k": [*b, *c]}
h13: f(*args, key=value, **kw)
h14: f(x for x in y)
h15: f((x for x in y), z)
h16: a[1:2, ::3, ...]
x0: List[:a]
x1: a[a:, b]
x2: [{}, (a() * a(0))(f((Optional for i, j in List))[b[100000000000000000000]::{Optional, List}], [], **True .real), '\n\t\\' | {1.5} and [T]]
x3: b.attr
x4: [List, a, a]
x5: [{"it's": b, Optional: List}, T].attr
x6: x1(T ** 0.1, -T, **('q"x',))
x7: '\n\t\\' & 1
x8: List
x9: T[a:1]
x10: {} or 1 .real
x11: []
x12: b"\x00'" and b'by'
x13: {tuple[*(List and Optional - False and Optional["it's"]), Optional(T, False)], {}}
x14: True .real.attr
x15: (lambda p='q"x': 'q"x') if (Optional if '\n\t\\' else T) else Optional and '\n\t\\' and 0
x16: [List(k=a), 7 <= 1e+301 <= List is not b, '\n\t\\'.attr]
x17: [List or 2.5e-07 or List]
x18: {b(), [].attr}
x19: tuple[*(... and 's' and 0)[:], f((False for i, j in b))(k=tuple[*1.5, 1.5])]
x20: f((tuple[*tuple[*x1, ...][f(("it's" for i, j in 2.5e-07)), x1[False, List, x1], []], 1 .real] for i, j in ((b"\x00'" >> x1)[[2.5e-07 for i in List]:] for i in tuple[*b"\x00'", 's'] and False .attr if {f((100000000000000000000 for i, j in List)): T, **b * a})))
x21: tuple[*x1, x1]
x22: 1e+301.attr
x23: {b: b, 0: '\n\t\\', **None}[List(*b),]
x24: x1 | 1.5 or x1(*b)
x25: T if 7 else True
x26: b'by' | 2.5e-07 or True .real or [b]
x27: {b, x1}
x28: True .real
x29: 7
x30: tuple[*(Optional[7] or a), {}]
x31: True .real[None, tuple[*b, a], Optional(k=None, **True)]
x32: []
x33: {a or True, {False} <= (Optional <= T not in ...) > "it's"[:T:100000000000000000000] not in b[True:, 7], b <= 1}
x34: 1 .real
x35: b.attr
x36: {T: None, **b}
x37: 1 .real
x38: lambda: T[1e+301:List:Optional] is b
x39: {+100000000000000000000: 's'.real, **f((T for i, j in x1))}
x40: -(List if False else b"\x00'")
x41: lambda p=T: ...
x42: 's'.real
x43: +(not T)
x44: b"\x00'" >> 's'
x45: x1 and a
x46: {}
x47: 's'.real
x48: List
x49: (lambda p={Optional, b}: [b for i in b]).attr
x50: [List[b'by'] or +x1 or a, (b'by' if T else List)({...: x1}), f(((T,) for i, j in (b, a)))]
x51: 1 .real
x52: T and Optional and 7
x53: 2.5.real
x54: x1
x55: {**{[b, "it's", '\n\t\\'], (T for i in b)}}
x56: f((x1 for i, j in 0)).attr
x57: lambda p=(Optional, T, 1e+301), **kk: f((a for i, j in a))
x58: f((1 for i, j in (lambda: None))) is x1[:2.5e-07] > {b if 1e+301 else "it's": {b'by': 1.5 for i in T}, a.attr: +a, **()}
x59: tuple[*List, b"\x00'"](k=f((0.1 for i, j in b'by'))) or f(('\n\t\\' for i, j in '\n\t\\'))[b % '\n\t\\']
x60: x1[T,]
x61: True .real
x62: {f((1 .real for i, j in {b"\x00'", None} <= tuple[*x1, x1] is True not in x1[T])): {f(('s' for i, j in b))[{100000000000000000000 for i in 1}:a], ~a[List:0.1:False]} for i in {True for i in {T: 'q"x', Optional: T} if 1}.attr}
x63: -([] if (T <= List > x1,) else False)
x64: x1 and b'by' and T
x65: {{a}: (List, T, T)}
x66: 0.1
x67: {2.5e-07, List, 1.5}
x68: ()[['q"x', 100000000000000000000] or ~b or f((... for i, j in b'by')):]
x69: (f((0 for i, j in b"\x00'")).attr, 1 .real, True .real @ (2.5e-07, T))
x70: ['q"x' or T for i in 1 != b"\x00'" <= b'by' > T]
x71: ((2.5.real if b() else (100000000000000000000, 's')) != ().attr, lambda *va, kw={tuple[*"it's", List] for i in 's' or List if tuple[*x1, x1]}, **kk: ((0.1 for i in '\n\t\\' if Optional),))
x72: tuple[*x1, T]
x73: b >= a > b >= List
x74: f((List for i, j in a))
x75: "it's" == 1 and (a if Optional else 7)
x76: [{0.1: b'by', **T}]
x77: True .real
x78: a and ... and T
x79: (List + 7 if {T: ..., List: List} else {**b}) and {Optional for i in 'q"x'.attr if (1 if Optional else b)} and {100000000000000000000, 1.5}
x80: lambda *, kw: None
x81: f(({tuple[*T, a]: lambda p=7, **kk: 0 for i in List}[(T or T) and {1: b for i in '\n\t\\'}] for i, j in (lambda p, *va: tuple[*('q"x', T, x1), 's'.real])))
x82: {Optional, "it's".attr}
x83: []
x84: {Optional.attr for i in [b for i in List]}
x85: f(({'s': a} for i, j in T))
x86: -T[7, a, List][:]
x87: True .real
x88: [f((b for i, j in a)) for i in False and ... and ...]
x89: {None, 0.1, x1}
x90: "it's".attr
x91: ((1e+301, 1e+301) - (lambda: None)) @ {(True, T): "it's" ** Optional}
x92: tuple[*x1[b], 1e+301 and Optional and T][tuple[*{True, List, x1}, T(*...)], f((() for i, j in tuple[*(List != ...), {x1: 0.1, a: 2.5e-07}]))]
x93: (lambda p=Optional, *va, **kk: List).attr
x94: [2.5.real]
x95: f((0.1 << List for i, j in -b))
x96: [b'by'.attr, lambda *, kw=x1: a, 1.5.attr]
x97: +1
x98: 1e+301.attr
x99: {{**a}}
x100: 's'.real
x101: tuple[*'q"x'[Optional:][[Optional, T],], True .real[tuple[*Optional, '\n\t\\']]]
x102: 100000000000000000000
x103: (a, "it's", "it's")
x104: not Optional
x105: {'s'.real}
x106: b
x107: lambda p, *va: List
x108: {None for i in T}
x109: (lambda *, kw=True .real, **kk: 100000000000000000000) and tuple[*tuple[*0, Optional], [True]][{T for i in 7} / List:, tuple[*x1, x1][{1}, 100000000000000000000]]
x110: (lambda p, *, kw, **kk: b for i in 2.5.real)
x111: tuple[*(0, '\n\t\\', None), 1.5]
x112: not True .real
x113: tuple[*List, T]
x114: 100000000000000000000 or 1.5
x115: 's'.real
x116: {a: b"\x00'", "it's": 7}
x117: {T, a}
x118: {{f((Optional for i, j in b))[lambda p: Optional]}}
x119: [b.attr for i in (0, a)]
x120: 's' or 1.5
x121: f(({7: 1, a: 1}[:a[Optional,]] for i, j in {Optional, b"\x00'", 1}))
x122: [2.5e-07, List, ...]
x123: lambda p, *, kw=1.5, **kk: Optional
x124: x1[1 or Optional, {7, True, x1}]
x125: ()
x126: False
x127: 2.5.real
x128: List
x129: [b, a]
x130: 's'.real
x131: ("it's" for i in a)
x132: ((b"\x00'" if b else '\n\t\\') and tuple[*"it's", x1]).attr
x133: not 0.1
x134: b << T or b"\x00'"
x135: b
x136: (lambda **kk: 's').attr
x137: List[(T,), T, b != b]
x138: 100000000000000000000 .attr
x139: lambda p=tuple[*(x1 for i in x1), 'q"x'] in +{b: 0.1 for i in "it's"} in {True: 1e+301, **'\n\t\\'} not in (T == List)[{'s': True}:, {x1: b, ...: a}], *, kw=lambda p, **kk: tuple[*List, Optional] // {'\n\t\\'}, **kk: (lambda p: x1) - +'\n\t\\' >= ({b: List} is not a.attr > a) is not (lambda p=~List, *, kw, **kk: {T})
x140: a
x141: T and 'q"x'
x142: {tuple[*List, Optional], {a: x1, b: b}, 's'[b"\x00'":]}
x143: (x1 for i in 's' if b"\x00'")
x144: [()]
x145: {7: 1.5 for i in 's'}[None:, ()].attr[True .real, []]
x146: [Optional]
x147: Optional if '\n\t\\' else 1e+301
x148: tuple[*7, 0.1]
x149: f((List for i, j in x1))
for k, v in __annotations__.items():
    print(k, v)
