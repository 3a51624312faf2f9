# Where CPython takes an integer count, size or position it accepts any
# object with __index__ (PyNumber_Index).
class I:
    def __init__(self, n=2):
        self.n = n

    def __index__(self):
        return self.n


class Bad:
    def __index__(self):
        return 'two'


class Mul:
    def __index__(self):
        return 2

    def __rmul__(self, other):
        return 'rmul wins'


tests = [
    ('list*', lambda: [0] * I()),
    ('*list', lambda: I() * [0]),
    ('str*', lambda: 'ab' * I()),
    ('*str', lambda: I(3) * 'ab'),
    ('tuple*', lambda: (1,) * I()),
    ('bytes*', lambda: b'x' * I()),
    ('bytearray*', lambda: bytearray(b'x') * I()),
    ('rmul first', lambda: [0] * Mul()),
    ('bytes', lambda: bytes(I())),
    ('bytearray', lambda: bytearray(I(3))),
    ('to_bytes', lambda: (5).to_bytes(I(), 'big')),
    ('round float', lambda: round(1.23456, I())),
    ('round int', lambda: round(12345, I(-2))),
    ('pop', lambda: [1, 2, 3].pop(I())),
    ('pop neg', lambda: [1, 2, 3].pop(I(-3))),
    ('insert', lambda: [1, 2, 3].insert(I(), 'x')),
    ('split', lambda: 'a,b,c,d'.split(',', I())),
    ('rsplit', lambda: 'a,b,c,d'.rsplit(',', I())),
    ('bytes split', lambda: b'a,b,c'.split(b',', I(1))),
    ('range', lambda: list(range(I()))),
    ('range3', lambda: list(range(I(), 10, I(3)))),
    ('chr', lambda: chr(I(65))),
    ('enumerate', lambda: list(enumerate('ab', I()))),
    ('replace', lambda: 'aaaa'.replace('a', 'b', I())),
    ('bytes replace', lambda: b'aaaa'.replace(b'a', b'b', I(1))),
    ('ljust', lambda: 'a'.ljust(I(3), '.')),
    ('rjust', lambda: 'a'.rjust(I())),
    ('center', lambda: 'a'.center(I(3))),
    ('zfill', lambda: '7'.zfill(I(3))),
    ('list.index', lambda: [1, 2, 3, 2].index(2, I())),
    ('tuple.index', lambda: (1, 2, 3, 2).index(2, I(), I(4))),
    ('list.index big', lambda: [1, 2].index(2, -10**30, 10**30)),
    ('expandtabs', lambda: 'a\tb'.expandtabs(I(4))),
    ('bytes expandtabs', lambda: b'a\tb'.expandtabs(I(3))),
    ('str.find', lambda: 'abcabc'.find('a', I(1))),
    ('str.count', lambda: 'aaaa'.count('a', I(1), I(3))),
    ('startswith', lambda: 'abc'.startswith('c', I())),
    ('bytes.find', lambda: b'abcabc'.find(b'a', I(1))),
    ('str.find big', lambda: 'abc'.find('a', -10**30, 10**30)),
    ('str.find str', lambda: 'abc'.find('a', 'x')),
    ('bytearray append', lambda: bytearray(b'a') + bytearray([I(98)])),
    ('bytearray.append', lambda: (lambda b: (b.append(I(99)), b)[1])(bytearray(b'a'))),
    ('bytearray.pop', lambda: bytearray(b'abc').pop(I(0))),
    ('bytearray.insert', lambda: (lambda b: (b.insert(I(0), I(122)), b)[1])(bytearray(b'a'))),
    ('bytes list', lambda: bytes([I(104), I(105)])),
    ('bytearray.append str', lambda: bytearray().append('x')),
    ('bytearray.append big', lambda: bytearray().append(2**70)),
    ('bad list*', lambda: [0] * Bad()),
    ('bad range', lambda: range(Bad())),
    ('bad chr', lambda: chr(Bad())),
    ('replace str count', lambda: 'aaaa'.replace('a', 'b', 'x')),
    ('zfill str', lambda: '7'.zfill('3')),
    ('list.index str', lambda: [1, 2].index(2, 'x')),
    ('replace big', lambda: 'aa'.replace('a', 'b', 10**30)),
]
for name, f in tests:
    try:
        print(name, repr(f()))
    except (TypeError, ValueError, OverflowError) as e:
        print(name, type(e).__name__, e)
