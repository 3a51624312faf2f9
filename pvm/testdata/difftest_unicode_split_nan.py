# Found by pvm/difftest: UnicodeDecodeError args and attributes, str.split
# with maxsplit keeps the rest's whitespace, %0a pads with spaces, float('-nan')
# keeps its sign, bytes.replace(b'', x) works byte by byte.
for b in [b'Hello, World\xf0cCnC', b'ax.a1\xeb', b'\xff', b'\xe2\x82']:
    try:
        b.decode()
    except ValueError as e:
        print(type(e).__name__, e.args, repr(e), str(e), e.start, e.end, e.reason, e.encoding, e.object)
try:
    bytearray(b'\x80').decode('utf-8')
except UnicodeError as e:
    print(e)
print('a b  c  '.split(None, 1), '  a b  c  '.rsplit(None, 1), 'a\n'.split(None, 0), b'a b  c '.split(None, 1), b' a b  c '.rsplit(None, 1))
print("%05a|%-5a|%05s|%05r|" % ('x', 'y', 'z', 'w'))
import struct
print(struct.pack('<d', float('-nan')), struct.pack('<f', float('-nan')), struct.pack('>e', float('-nan')))
print(b'\xc4\xb0y'.replace(b'', b'3'), bytearray(b'\xce\xa3').replace(b'', b'-', 2), b''.replace(b'', b'x'), b'ab'.replace(b'', b'', 1))
