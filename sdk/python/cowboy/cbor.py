"""Canonical CBOR as the Cowboy chain writes it (pvm/cbor, RFC 8949 §4.2).

cbor2's canonical mode differs from the chain's format in two ways: it
shrinks floats to 16 or 32 bits when exact (the chain always writes 64-bit
floats) and it sorts map keys length-first (RFC 7049 §3.9; the chain sorts
by the bytewise order of the key encodings). The node refuses payloads that
are not in its canonical form, so this module has its own small encoder.
Decoding is cbor2's.

Mapping: None, bool, int (tag 2/3 bignums outside [-2^64, 2^64)), float
(always 0xfb, NaN as 0x7ff8000000000000), str, bytes/bytearray, list/tuple
(arrays), dict (maps, keys sorted bytewise). Anything else is a TypeError.
"""

import math
import struct

import cbor2

MAX_DEPTH = 64
MAX_INT_BITS = 4096


def _head(major, n):
    if n < 24:
        return bytes([major << 5 | n])
    if n < 1 << 8:
        return bytes([major << 5 | 24, n])
    if n < 1 << 16:
        return bytes([major << 5 | 25]) + n.to_bytes(2, "big")
    if n < 1 << 32:
        return bytes([major << 5 | 26]) + n.to_bytes(4, "big")
    return bytes([major << 5 | 27]) + n.to_bytes(8, "big")


def _int(n):
    if 0 <= n < 1 << 64:
        return _head(0, n)
    if -(1 << 64) <= n < 0:
        return _head(1, -1 - n)
    if abs(n).bit_length() > MAX_INT_BITS:
        raise ValueError("integer exceeds the %d-bit limit" % MAX_INT_BITS)
    tag, mag = (2, n) if n > 0 else (3, -1 - n)
    b = mag.to_bytes((mag.bit_length() + 7) // 8, "big")
    return _head(6, tag) + _head(2, len(b)) + b


def _float(f):
    if math.isnan(f):
        return b"\xfb\x7f\xf8\x00\x00\x00\x00\x00\x00"
    return b"\xfb" + struct.pack(">d", f)


def _encode(v, depth, out):
    if v is None:
        out.append(b"\xf6")
    elif v is True:
        out.append(b"\xf5")
    elif v is False:
        out.append(b"\xf4")
    elif isinstance(v, int):
        out.append(_int(int(v)))
    elif isinstance(v, float):
        out.append(_float(float(v)))
    elif isinstance(v, str):
        b = v.encode("utf-8")
        out.append(_head(3, len(b)))
        out.append(b)
    elif isinstance(v, (bytes, bytearray, memoryview)):
        b = bytes(v)
        out.append(_head(2, len(b)))
        out.append(b)
    elif isinstance(v, (list, tuple)):
        if depth >= MAX_DEPTH:
            raise ValueError("nesting exceeds %d levels" % MAX_DEPTH)
        out.append(_head(4, len(v)))
        for x in v:
            _encode(x, depth + 1, out)
    elif isinstance(v, dict):
        if depth >= MAX_DEPTH:
            raise ValueError("nesting exceeds %d levels" % MAX_DEPTH)
        entries = []
        for k, x in v.items():
            if isinstance(k, dict):
                raise TypeError("a dict cannot be a map key")
            entries.append((encode(k, depth + 1), encode(x, depth + 1)))
        entries.sort(key=lambda e: e[0])
        out.append(_head(5, len(entries)))
        for k, x in entries:
            out.append(k)
            out.append(x)
    else:
        raise TypeError("cannot encode %r to CBOR" % type(v).__name__)


def encode(value, _depth=0):
    """The canonical CBOR of value, byte for byte what the chain writes."""
    out = []
    _encode(value, _depth, out)
    return b"".join(out)


def decode(data):
    """Decode CBOR bytes (empty bytes decode as None)."""
    data = bytes(data)
    if not data:
        return None
    return cbor2.loads(data)


def call_payload(method, args=()):
    """The payload of a transaction to an actor: [method, args]."""
    if not method:
        raise ValueError("empty method name")
    return encode([method, list(args)])


def deploy_payload(code, salt, args=()):
    """The payload of an actor-creating transaction: [code, salt(32), args]."""
    if isinstance(code, bytes):
        code = code.decode("utf-8")
    if len(salt) != 32:
        raise ValueError("salt is %d bytes, want 32" % len(salt))
    return encode([code, bytes(salt), list(args)])
