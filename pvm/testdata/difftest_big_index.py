# Sequence repeat and indexing with ints beyond 64 bits (found by difftest).
big = 2**97
fs = [lambda: (1, 2) * big, lambda: [1] * big, lambda: 'a' * big, lambda: b'a' * big, lambda: big * (1,),
      lambda: (1,) * -big, lambda: 'a' * -2**70, lambda: [1] * 2**63, lambda: bytearray(b'x') * 2**64,
      lambda: range(3)[2**80], lambda: [1, 2][2**70], lambda: 'ab'[2**64], lambda: (1,)[-2**70],
      lambda: b'ab'[2**64], lambda: bytearray(b'ab')[-2**64], lambda: 'ab'[2**63 - 1], lambda: [1][-2**63]]
for i, f in enumerate(fs):
    try:
        print(i, len(f()))
    except Exception as e:
        print(i, type(e).__name__, e)
for v in ([1], (1,), 'a', b'a', bytearray(b'a')):
    x = v
    try:
        x *= big
    except Exception as e:
        print('imul', type(v).__name__, type(e).__name__, e)
for v in ([1, 2], bytearray(b'ab')):
    try:
        v[2**70] = 1
    except Exception as e:
        print('set', type(v).__name__, type(e).__name__, e)
    try:
        del v[-2**70]
    except Exception as e:
        print('del', type(v).__name__, type(e).__name__, e)
