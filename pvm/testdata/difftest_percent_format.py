# Found by pvm/difftest: %-formatting of ints with a precision and a width,
# %x/%o/%c refuse floats; format(int, 'c') checks; bytes 'in' range; format_map.
for fmt, v in [('%05.2d',7),('%#.4x',255),('%#8.4x',255),('%-8.3d|',-5),('%+08.3d',5),('%#08x',255),('% 5.3o',8),('%#5.2d',72.9),('%.0d',0),('%5.0d|',0), ('%#.0o',0), ('%#x', 0), ('%-+7.3X|', -300)]:
    print(repr(fmt), repr(fmt % v))
for fmt, v in [('%x',1.5),('%o',2.0),('%c',65.0),('%X',True)]:
    try: print(repr(fmt % v))
    except Exception as e: print(type(e).__name__, e)
for spec in ['+c', ',c', '#c', '=5c', '05c', '.2c', '_c', '5c', '^5c', ' c']:
    for v in [65, -11, 2**30]:
        try: print(spec, v, repr(format(v, spec)))
        except Exception as e: print(spec, v, type(e).__name__, e)
try:
    print(-1 in b'abc')
except ValueError as e:
    print('ValueError', e)
try:
    print(256 in bytearray(b'abc'))
except ValueError as e:
    print('ValueError', e)
print(97 in b'abc', 0 in b'', 255 in b'\xff')
for s, m in [('{}', {'a': 1}), ('{a}', {'a': 1}), ('{0}', {}), ('{a[1]}', {'a': [1]})]:
    try:
        print(s.format_map(m))
    except Exception as e:
        print(type(e).__name__, e)
