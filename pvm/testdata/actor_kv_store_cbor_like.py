# A key-value actor that serializes values deterministically (length-prefixed bytes).
import struct


def encode(v):
    if v is None:
        return b"N"
    if isinstance(v, bool):
        return b"T" if v else b"F"
    if isinstance(v, int):
        return b"I" + struct.pack(">q", v)
    if isinstance(v, str):
        b = v.encode()
        return b"S" + struct.pack(">I", len(b)) + b
    if isinstance(v, (list, tuple)):
        return b"L" + struct.pack(">I", len(v)) + b"".join(encode(x) for x in v)
    if isinstance(v, dict):
        items = sorted(v.items())
        return b"D" + struct.pack(">I", len(items)) + b"".join(encode(k) + encode(x) for k, x in items)
    raise TypeError(f"cannot encode {type(v).__name__}")


def decode(b, i=0):
    tag = b[i:i + 1]
    i += 1
    if tag == b"N":
        return None, i
    if tag in (b"T", b"F"):
        return tag == b"T", i
    if tag == b"I":
        return struct.unpack_from(">q", b, i)[0], i + 8
    if tag == b"S":
        (n,) = struct.unpack_from(">I", b, i)
        return b[i + 4:i + 4 + n].decode(), i + 4 + n
    if tag == b"L":
        (n,) = struct.unpack_from(">I", b, i)
        i += 4
        out = []
        for _ in range(n):
            x, i = decode(b, i)
            out.append(x)
        return out, i
    if tag == b"D":
        (n,) = struct.unpack_from(">I", b, i)
        i += 4
        out = {}
        for _ in range(n):
            k, i = decode(b, i)
            out[k], i = decode(b, i)
        return out, i
    raise ValueError(f"bad tag {tag!r} at {i - 1}")


store = {}
for k, v in [("cfg", {"fee": 3, "name": "pool", "on": True}), ("list", [1, -2, "três", None]), ("n", 2**62)]:
    store[k] = encode(v)
    print(k, len(store[k]), store[k][:12].hex())
for k, blob in store.items():
    v, end = decode(blob)
    print(k, v, end == len(blob))
print(encode({"b": 1, "a": 2}) == encode({"a": 2, "b": 1}))
for bad in [lambda: encode(1.5), lambda: decode(b"X")]:
    try:
        bad()
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
