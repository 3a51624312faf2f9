# Found by pvm/difftest: %c ignores flags and precision, format() spec checks
# for str/int/bool/None, chr() overflow.
for fmt, v in [('%05c',65),('%-5c|',65),('%+5.2c',65),('%#.0c',65),('% 10c',0x263a),('%c',-1),('%c',0x110000),('%c',2**70), ('%5c', 'x'), ('%-3c|','y'), ('%05.1c', 'z'), ('%c', 1.5), ('%c', 'ab')]:
    try: print(repr(fmt), repr(fmt % v))
    except Exception as e: print(repr(fmt), type(e).__name__, e)
for v, spec in [('ab','=5'),('ab','05'),('ab','#5'),('ab',',') ,('ab','_'),(5,',b'),(5,'_b'),(5,',x'),(5,'_n'),(5,',n'),(5,',o'),(5,',c'),(True,'=5'),(True,'05'), (1.5, ',n'), ('ab', '0<5'), (None, '5'), (None, '=5'), (True, 's'), (True, '>6'), (False, '.2f'), (True, '')]:
    try: print(repr(v), repr(spec), repr(format(v, spec)))
    except Exception as e: print(repr(v), repr(spec), type(e).__name__, e)
for v in [-1, 2**31, -2**31-1, 2**70, 0x110000]:
    try: chr(v)
    except Exception as e: print(v, type(e).__name__, e)
print(f'{True:>5}|{False!s:>6}|{True!r}')
