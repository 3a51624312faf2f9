# PyNumber_Index: an int subclass is its own value, its __index__ is not
# called; what an __index__ returns may be an int subclass (3.11 takes
# its value with a DeprecationWarning, on stderr) and is not indexed again.
import itertools
import math
import operator
import struct
from enum import IntEnum


class J(int):
    def __index__(self):
        return J(2)


class K:
    def __index__(self):
        return J(7)


class N(int):
    pass


class Two:
    def __index__(self):
        return 2


class Bad:
    def __index__(self):
        return "x"


class Color(IntEnum):
    RED = 1
    GREEN = 2


cases = [
    ("operator.index(J(5))", lambda: operator.index(J(5))),
    ("operator.index(True)", lambda: operator.index(True)),
    ("operator.index(N(4))", lambda: operator.index(N(4))),
    ("operator.index(K())", lambda: operator.index(K())),
    ("operator.index(Color.GREEN)", lambda: operator.index(Color.GREEN)),
    ("operator.index(Bad())", lambda: operator.index(Bad())),
    ("operator.index(1.5)", lambda: operator.index(1.5)),
    ("int.__index__(J(3))", lambda: int.__index__(J(3))),
    ("[0] * J(3)", lambda: [0] * J(3)),
    ("J(3) * [0]", lambda: J(3) * [0]),
    ("[0] * K()", lambda: [0] * K()),
    ("'ab' * N(2)", lambda: "ab" * N(2)),
    ("hex(J(5))", lambda: hex(J(5))),
    ("bin(J(3))", lambda: bin(J(3))),
    ("oct(N(9))", lambda: oct(N(9))),
    ("hex(K())", lambda: hex(K())),
    ("hex(True)", lambda: hex(True)),
    ("hex(Bad())", lambda: hex(Bad())),
    ("hex(1.0)", lambda: hex(1.0)),
    ("'abc'[J(1)]", lambda: "abc"[J(1)]),
    ("'abcdefghij'[K()]", lambda: "abcdefghij"[K()]),
    ("list(range(9))[K():]", lambda: list(range(9))[K():]),
    ("'abcdefghijk'[J(1):K()]", lambda: "abcdefghijk"[J(1):K()]),
    ("(1, 2, 3)[J(1)]", lambda: (1, 2, 3)[J(1)]),
    ("[1, 2, 3].pop(J(0))", lambda: [1, 2, 3].pop(J(0))),
    ("[10, 20, 30][Color.RED]", lambda: [10, 20, 30][Color.RED]),
    ("[0][K()]", lambda: [0][K()]),
    ("[0][Bad()]", lambda: [0][Bad()]),
    ("range(J(3))", lambda: range(J(3))),
    ("bytes(K())", lambda: bytes(K())),
    ("b'abc'[J(1)]", lambda: b"abc"[J(1)]),
    ("bytearray(b'abc')[J(1)]", lambda: bytearray(b"abc")[J(1)]),
    ("math.comb(K(), 2)", lambda: math.comb(K(), 2)),
    ("list(itertools.islice(range(10), K()))", lambda: list(itertools.islice(range(10), K()))),
    ("list(itertools.islice(range(10), J(4)))", lambda: list(itertools.islice(range(10), J(4)))),
    ("struct.pack('<i', K())", lambda: struct.pack("<i", K())),
    ("struct.pack('<i', J(3))", lambda: struct.pack("<i", J(3))),
    ("struct.pack('<i', Bad())", lambda: struct.pack("<i", Bad())),
    ("round(2.5, J(0))", lambda: round(2.5, J(0))),
    ("int('11', N(2))", lambda: int("11", N(2))),
    ("int('11', Two())", lambda: int("11", Two())),
    ("int('11', 'x')", lambda: int("11", "x")),
    ("int('11', Bad())", lambda: int("11", Bad())),
    ("int(J(5))", lambda: int(J(5))),
    ("slice(J(1), K(), N(2)).indices(N(5))", lambda: slice(J(1), K(), N(2)).indices(N(5))),
    ("list(range(10))[slice(J(1), K(), N(2))]", lambda: list(range(10))[slice(J(1), K(), N(2))]),
    ("format(J(5), 'x')", lambda: format(J(5), "x")),
]
for text, f in cases:
    try:
        r = f()
        print(text, "->", repr(r), type(r).__name__)
    except Exception as e:
        print(text, "->", type(e).__name__, e)
