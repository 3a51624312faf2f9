# Found by pvm/difftest: float.hex and float.fromhex; slices, ranges, float
# divmod, tuple methods and min/max forms checked alongside.
def t(f):
    try:
        print(repr(f()))
    except Exception as e:
        print('!', type(e).__name__, e)
for x in [1.5, -0.0, 0.1, float('inf'), float('nan'), 5e-324, 1e300, 0.0]:
    t(lambda: x.hex())
t(lambda: float.fromhex('0x1.8p1'))
t(lambda: float.fromhex('-0x1p-1074'))
t(lambda: float.fromhex(' inf '))
sl = slice(1, None, -1)
t(lambda: (sl, sl.indices(5), sl.start, sl.stop, sl.step))
t(lambda: slice(None, 3).indices(10))
t(lambda: slice(-3, None, 2).indices(4))
t(lambda: slice(1, 2, 0).indices(4))
r = range(1, 20, 3)
t(lambda: (r[1:4], r[::-1], r[-2], r.count(4), r.index(7), r == range(1, 20, 3), bool(range(0))))
t(lambda: range(10)[slice(2, None, 2)])
t(lambda: divmod(7.5, 2))
t(lambda: divmod(-7.5, 2))
t(lambda: divmod(7, -2.0))
t(lambda: divmod(float('inf'), 2))
t(lambda: divmod(1.0, 0.0))
t(lambda: (1, 2, 3).count(2))
t(lambda: (1, 2) * 2 < (1, 2))
t(lambda: min([], default=None))
t(lambda: max([3, 1, 2], key=lambda v: (-v, v)))
t(lambda: max('ab', 'b', key=len))
t(lambda: (float('1e500'), float('-1E-500'), float('  -0.0 '), float('1_000.5'), float('.5'), float('5.')))
t(lambda: [round(2.675, n) for n in (0, 1, 2, -1)])
t(lambda: (0.5).as_integer_ratio())
for h in ['0x1p1024', '0x1.fffffffffffff8p1023', '0x1p-1075', '0x1.8p-1074', '0x3p-1076', '1', '-.8', 'x', '0x', '0x1p', ' 0X1.P+2 ', '0x1.ffffffffffffffffp0', '1e3', '0x1.0p-10000', '0x0p99999']:
    t(lambda: float.fromhex(h))
for x in [float('nan'), float('inf'), -float('inf'), -2.5]:
    t(lambda: x.as_integer_ratio())
