# Found by pvm/difftest: bytearray extended-slice assignment of b'' deletes,
# bytearray repr escapes ', bytes.fromhex positions, str/bytes splitlines.
v4 = bytearray(b'0 cBz'); v4[12::-2] = b''; print(v4)
v4 = bytearray(b'abc'); v4[::-1] = b''; print(v4)
v4 = bytearray(b' a \xd2'); v4[:2:3] = b''; print(v4)
v4 = bytearray(b'\x041'); v4[1::2] = bytearray(); print(v4)
print(bytearray(b"'"), bytearray(b"'\""), bytearray(b'"'), b"'", [bytearray(b"x'y")])
for h in ['a', '0g', ' 0a 0b ', 'zz', '0a\t0b\n', '0 a']:
    try:
        print(bytes.fromhex(h))
    except ValueError as e:
        print('ValueError', e)
print('a\x0cb\x0bc\x1cd\x85e\u2028f\r\ng'.splitlines(), 'x\x0c'.splitlines(True), b'a\x0cb\rc'.splitlines())
