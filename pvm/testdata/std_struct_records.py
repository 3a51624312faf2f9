# struct: a fixed-size record log with native and explicit byte orders.
import struct

REC = struct.Struct("<IqHB?3s")
print(REC.size, struct.calcsize(">IqHB?3s"), struct.calcsize("@IqHB?3s") >= REC.size)
rows = [(1, -5, 300, 7, True, b"abc"), (2, 2**40, 0, 255, False, b"x"), (3, 0, 65535, 0, True, b"long!")]
blob = b"".join(REC.pack(*r) for r in rows)
print(len(blob), blob[:REC.size].hex())
for i in range(len(rows)):
    print(REC.unpack_from(blob, i * REC.size))
print([r[0] for r in REC.iter_unpack(blob)])
print(struct.pack(">Q", 2**64 - 1).hex(), struct.unpack(">q", b"\xff" * 8), struct.pack("<e", 1.5).hex() if False else "")
print(struct.pack("!hH", -1, 1).hex(), struct.pack(">3B", 1, 2, 3), struct.unpack("<4B", b"\x01\x02\x03\x04"))
print(struct.pack("<d", -0.0).hex(), struct.unpack("<d", struct.pack("<d", 0.1))[0], struct.pack(">f", 3.0).hex())
print(struct.pack("5s", b"ab"), struct.pack("2s", b"abcdef"), struct.unpack("2s", b"hi"), struct.pack("c", b"z"))
print(struct.pack("<?", 5), struct.unpack("<??", b"\x00\x02"), struct.pack(">xHx", 1))
buf = bytearray(8)
struct.pack_into("<HI", buf, 1, 7, 99)
print(buf, struct.unpack_from("<HI", buf, 1))
for fmt, args in [("<h", (40000,)), ("<Q", (-1,)), ("<I", ("x",)), ("<2H", (1,)), ("<c", (b"ab",)), ("<d", ("1",))]:
    try:
        struct.pack(fmt, *args)
    except struct.error as e:
        print("struct.error", fmt, e)
for fmt, data in [("<I", b"\x00" * 3), ("<H", b"\x00" * 3)]:
    try:
        struct.unpack(fmt, data)
    except struct.error as e:
        print("struct.error", fmt, e)
try:
    struct.calcsize("<Z")
except struct.error as e:
    print("struct.error", e)
