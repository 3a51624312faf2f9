# Found by pvm/difftest: struct's range errors for h and H name the code in
# big-endian formats, as CPython's big-endian packers do.
import struct
for p in ['', '<', '>', '!', '=', '@']:
    for f, v in [('H', 70000), ('h', 40000), ('B', 256), ('b', 200), ('i', 2**31), ('I', 2**32)]:
        try:
            struct.pack(p + f, v)
        except struct.error as e:
            print(repr(p + f), e)
