# Packing actor messages into fixed binary layouts with struct.
import struct

HEADER = struct.Struct(">4sBHI")
print(HEADER.size, HEADER.format)


def encode_transfer(nonce, to, amount, memo):
    body = struct.pack(">Q20sQ", amount, to, nonce) + memo.encode()
    return HEADER.pack(b"CWBY", 1, len(body), 0xDEADBEEF) + body


def decode_transfer(raw):
    magic, version, length, tag = HEADER.unpack_from(raw, 0)
    amount, to, nonce = struct.unpack_from(">Q20sQ", raw, HEADER.size)
    memo = raw[HEADER.size + 36:HEADER.size + length].decode()
    return magic, version, length, hex(tag), amount, to.rstrip(b"\0"), nonce, memo


to = bytes(range(1, 13))
msg = encode_transfer(42, to, 10**15, "hello")
print(len(msg), msg[:12].hex())
print(decode_transfer(msg))

print(struct.pack("<i", -2).hex(), struct.pack(">i", -2).hex(), struct.pack("<H", 513))
print(struct.unpack("<hhl", b"\x01\x00\xff\xff\x00\x00\x00\x80"))
print(struct.calcsize("<qQ?"), struct.calcsize("<3s2x"), struct.pack("<3s2x", b"ab"))
print(struct.pack(">?BbHh", True, 255, -128, 65535, -32768).hex())
print(struct.unpack(">d", struct.pack(">d", 1.5)), struct.pack("<f", 0.25).hex())
print(list(struct.iter_unpack("<HB", bytes([1, 0, 2, 3, 0, 4]))))
for fmt, val in [("<B", 256), ("<b", 128), ("<H", -1), ("<I", 2**32)]:
    try:
        struct.pack(fmt, val)
    except struct.error as e:
        print("struct.error", fmt, e)
try:
    struct.unpack("<I", b"abc")
except struct.error as e:
    print("struct.error", e)
records = [(1, 500), (2, 70000), (3, 1)]
blob = b"".join(struct.pack("<HI", *r) for r in records)
print(blob.hex(), [struct.unpack_from("<HI", blob, i * 6) for i in range(3)])
