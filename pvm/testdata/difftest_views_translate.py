# Found by pvm/difftest (differential fuzzing against CPython): bytearray
# repetition, bytes/bytearray and dict-view comparisons, str.expandtabs,
# translate, maketrans, format_map, bytes.translate.
def t(f):
    try:
        print(repr(f()))
    except Exception as e:
        print('!', type(e).__name__, e)
t(lambda: b'.'.join([]))
t(lambda: bytearray(b'.'.join([])))
t(lambda: bytearray(b'') * 1)
t(lambda: bytes(bytearray(b'')))
t(lambda: {'a':1}.keys() <= {'a','b'})
t(lambda: {'a':1}.keys() == {'a':2}.keys())
t(lambda: {'a':1}.items() < {('a',1),('b',2)})
t(lambda: {'a':1}.keys() > set())
t(lambda: bytearray(b'ab') * 2)
t(lambda: 2 * bytearray(b'ab'))
t(lambda: b'ab' == bytearray(b'ab'))
t(lambda: b'ab' < bytearray(b'ac'))
def f():
    x = bytearray(b'xy'); x *= 3; return x
t(f)
t(lambda: {'a':1}.items() == {('a',1)})
t(lambda: {1,2} == {1:0, 2:0}.keys())
t(lambda: {'a':1}.values() == {'a':1}.values())
t(lambda: 'a\tb'.expandtabs(4))
t(lambda: 'abc'.translate({97: 'X', 98: None, 99: 100}))
t(lambda: '{a}-{b[0]}'.format_map({'a': 1, 'b': [5]}))
t(lambda: str.maketrans('ab', 'xy'))
t(lambda: str.maketrans({'a': 'b'}))
t(lambda: 'abc'.translate(str.maketrans('ab', 'xy', 'c')))
t(lambda: b'abc'.translate(None, b'b'))
