"""Independent check of Appendix A: decode with cbor2, hash with pycryptodome.

Run by tx_test.go under /usr/bin/python3 (Debian's python3-cbor2 and
python3-pycryptodome). Prints "ok 2 vectors" or exits non-zero.
"""
import json
import sys

import cbor2
from Cryptodome.Hash import keccak


def k256(b):
    return keccak.new(digest_bits=256, data=b).hexdigest()


want_fields = [1, 0, b"\x11" * 20, 1, 21000, 0, 10, 2, 1, 0, None, b""]
vectors = json.load(open(sys.argv[1]))["vectors"]
for v in vectors:
    raw = bytes.fromhex(v["cbor"])
    tx = cbor2.loads(raw)
    assert tx[:12] == want_fields, (v["name"], tx)
    # cbor2 in canonical mode must reproduce the same bytes.
    assert cbor2.dumps(tx, canonical=True) == raw, v["name"]
    unsigned = list(tx)
    unsigned[12] = None
    assert k256(cbor2.dumps(unsigned, canonical=True)) == v["signing_hash"], v["name"]
    assert k256(raw) == v["tx_hash"], v["name"]
    if v["name"] == "vector2_signed":
        assert tx[12] == [0, b"\x01" * 32, b"\x02" * 32], tx[12]
    else:
        assert tx[12] is None
print("ok %d vectors" % len(vectors))
