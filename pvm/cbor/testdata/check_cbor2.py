#!/usr/bin/python3
"""Cross-check pvm/cbor's golden vectors against Python's cbor2.

Each entry of vectors.json is {"name", "py", "hex", "note"}: "py" is a Python
expression that CPython here and the PVM in the Go test (TestVectors) both
evaluate, "hex" is the canonical CBOR pvm/cbor must produce for it.

cbor2.dumps(value, canonical=True) differs from our format in two documented
ways, so this script checks three things per vector:

1. adjusted cbor2 == hex, where "adjusted" is cbor2's canonical encoder with
   two encoders replaced:
   - floats are always 0xfb + IEEE 754 binary64 (struct.pack('>d')), NaN as
     0x7ff8000000000000; cbor2 canonical shrinks floats to 16/32 bits when
     exact (and writes NaN/inf as f97e00/f97c00), which technical spec v2
     ("64-bit floats only") forbids;
   - map entries are sorted by the bytewise order of the key encodings
     (RFC 8949 §4.2.1); cbor2 5.x sorts length-first (RFC 7049 §3.9).
2. plain cbor2.dumps(value, canonical=True) == hex, unless "note" names
   which of the two differences applies (and then that one explains it).
3. cbor2.loads(hex) equals the value (tuples compare as lists, bytearray as
   bytes, floats by their bits so -0.0 != 0.0 and nan == nan, and True != 1).

Usage: check_cbor2.py [--write] [vectors.json]
--write recomputes "hex" and "note" from cbor2 (run after adding a vector,
then review the diff; the Go test is the check that pvm/cbor agrees).
Exit status: 0 ok, 1 mismatch, 77 cbor2 missing.
"""

import io
import json
import math
import os
import struct
import sys

try:
    import cbor2
    from cbor2.encoder import CBOREncoder as PyEncoder
except ImportError:
    print("cbor2 not installed", file=sys.stderr)
    sys.exit(77)

NOTE_FLOAT = "cbor2 canonical shrinks floats; ours are always 64-bit"
NOTE_ORDER = "cbor2 canonical sorts map keys length-first (RFC 7049); ours bytewise (RFC 8949)"


def f64(enc, value):
    bits = struct.pack(">d", value)
    if math.isnan(value):
        bits = bytes.fromhex("7ff8000000000000")
    enc.write(b"\xfb" + bits)


def bytewise_map(enc, value):
    entries = sorted((enc.encode_to_bytes(k), enc.encode_to_bytes(v)) for k, v in value.items())
    enc.encode_length(5, len(entries))
    for k, v in entries:
        enc.write(k)
        enc.write(v)


def dumps(value, floats, order):
    if not floats and not order:
        return cbor2.dumps(value, canonical=True)
    # The pure-Python encoder: the C one (_cbor2) ignores replaced encoders
    # for builtin types.
    fp = io.BytesIO()
    enc = PyEncoder(fp, canonical=True)
    if floats:
        enc._encoders[float] = f64
    if order:
        enc._encoders[dict] = bytewise_map
    enc.encode(value)
    return fp.getvalue()


def norm(v):
    """A hashable form that compares the way the format distinguishes values."""
    if v is None:
        return ("none",)
    if isinstance(v, bool):
        return ("bool", v)
    if isinstance(v, int):
        return ("int", v)
    if isinstance(v, float):
        return ("float", "nan" if math.isnan(v) else struct.pack(">d", v))
    if isinstance(v, str):
        return ("str", v)
    if isinstance(v, (bytes, bytearray)):
        return ("bytes", bytes(v))
    if isinstance(v, (list, tuple)):
        return ("array", tuple(norm(x) for x in v))
    if isinstance(v, dict):
        return ("map", frozenset((norm(k), norm(x)) for k, x in v.items()))
    raise TypeError("unexpected %r" % (v,))


def evaluate(expr):
    return eval(expr, {"__builtins__": {"float": float, "bytearray": bytearray, "list": list,
                                        "range": range, "dict": dict, "tuple": tuple}})


def main():
    args = sys.argv[1:]
    write = "--write" in args
    args = [a for a in args if a != "--write"]
    path = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "vectors.json")
    with open(path) as f:
        vectors = json.load(f)
    bad = 0
    for vec in vectors:
        value = evaluate(vec["py"])
        ours = dumps(value, True, True)
        plain = dumps(value, False, False)
        note = []
        if plain != ours:
            if dumps(value, False, True) != ours:
                note.append(NOTE_FLOAT)
            if dumps(value, True, False) != ours:
                note.append(NOTE_ORDER)
        note = "; ".join(note)
        if write:
            vec["hex"] = ours.hex()
            vec["note"] = note
            continue
        want = bytes.fromhex(vec["hex"])
        problems = []
        if ours != want:
            problems.append("adjusted cbor2 gives %s" % ours.hex())
        if vec.get("note", "") != note:
            problems.append("note should be %r (plain cbor2 gives %s)" % (note, plain.hex()))
        try:
            back = cbor2.loads(want)
            if norm(back) != norm(value):
                problems.append("cbor2.loads gives %r" % (back,))
        except Exception as e:  # noqa: BLE001 -- report any decoder failure
            problems.append("cbor2.loads fails: %s" % e)
        if problems:
            bad += 1
            print("%s (%s): %s" % (vec["name"], vec["py"][:60], "; ".join(problems)))
    if write:
        with open(path, "w") as f:
            json.dump(vectors, f, indent=1, ensure_ascii=False)
            f.write("\n")
        print("wrote %d vectors" % len(vectors))
        return 0
    if bad:
        print("%d of %d vectors disagree with cbor2" % (bad, len(vectors)))
        return 1
    print("ok: %d vectors agree with cbor2" % len(vectors))
    return 0


if __name__ == "__main__":
    sys.exit(main())
