"""The Cowboy transaction (technical spec v2 §2.1, wire format §2.5)."""

from .cbor import _head
from .keys import address_bytes, keccak256, recover_address

MAX_U64 = (1 << 64) - 1


def _uint(n, name):
    n = int(n)
    if not 0 <= n <= MAX_U64:
        raise ValueError("%s %d is outside 0 … 2^64-1" % (name, n))
    return _head(0, n)


def _bytes(b):
    return _head(2, len(b)) + bytes(b)


def _value(v):
    v = int(v)
    if v < 0 or v >= 1 << 256:
        raise ValueError("value %d is outside 0 … 2^256-1" % v)
    if v <= MAX_U64:
        return _head(0, v)
    mag = v.to_bytes((v.bit_length() + 7) // 8, "big")
    return _head(6, 2) + _bytes(mag)


class Tx:
    """A transaction: the canonical CBOR array of 13 items

    [chain_id, nonce, to, value, cycles_limit, cells_limit,
     max_fee_per_cycle, max_fee_per_cell, tip_per_cycle, tip_per_cell,
     access_list, payload, signature]

    exactly as chain/types encodes it. `to` is None for an actor creation;
    `access_list` is None or a list of (address, [32-byte keys]);
    `signature` is None or (y_parity, r, s) with 32-byte r and s.
    """

    FIELDS = ("chain_id", "nonce", "to", "value", "cycles_limit", "cells_limit",
              "max_fee_per_cycle", "max_fee_per_cell", "tip_per_cycle", "tip_per_cell",
              "access_list", "payload", "signature")

    def __init__(self, chain_id, nonce=0, to=None, value=0, cycles_limit=0, cells_limit=0,
                 max_fee_per_cycle=0, max_fee_per_cell=0, tip_per_cycle=0, tip_per_cell=0,
                 access_list=None, payload=b"", signature=None):
        self.chain_id = chain_id
        self.nonce = nonce
        self.to = None if to is None else address_bytes(to)
        self.value = value
        self.cycles_limit = cycles_limit
        self.cells_limit = cells_limit
        self.max_fee_per_cycle = max_fee_per_cycle
        self.max_fee_per_cell = max_fee_per_cell
        self.tip_per_cycle = tip_per_cycle
        self.tip_per_cell = tip_per_cell
        self.access_list = access_list
        self.payload = bytes(payload)
        self.signature = signature

    def _encode(self, with_sig):
        out = [_head(4, 13), _uint(self.chain_id, "chain_id"), _uint(self.nonce, "nonce")]
        out.append(b"\xf6" if self.to is None else _bytes(self.to))
        out.append(_value(self.value))
        for name in self.FIELDS[4:10]:
            out.append(_uint(getattr(self, name), name))
        if self.access_list is None:
            out.append(b"\xf6")
        else:
            out.append(_head(4, len(self.access_list)))
            for addr, keys in self.access_list:
                out.append(_head(4, 2))
                out.append(_bytes(address_bytes(addr)))
                out.append(_head(4, len(keys)))
                for k in keys:
                    k = bytes.fromhex(k[2:]) if isinstance(k, str) else bytes(k)
                    if len(k) != 32:
                        raise ValueError("storage key is %d bytes, want 32" % len(k))
                    out.append(_bytes(k))
        out.append(_bytes(self.payload))
        if not with_sig or self.signature is None:
            out.append(b"\xf6")
        else:
            v, r, s = self.signature
            if v not in (0, 1) or len(r) != 32 or len(s) != 32:
                raise ValueError("signature must be (0|1, 32 bytes, 32 bytes)")
            out += [_head(4, 3), _head(0, v), _bytes(r), _bytes(s)]
        return b"".join(out)

    def signing_bytes(self):
        """Canonical CBOR with signature = null."""
        return self._encode(False)

    def signing_hash(self):
        return keccak256(self.signing_bytes())

    def encode(self):
        """Canonical CBOR of the transaction as it is (signed or not)."""
        return self._encode(True)

    def hash(self):
        """keccak256 of the (signed) canonical CBOR."""
        return keccak256(self.encode())

    def hash_hex(self):
        return "0x" + self.hash().hex()

    def sign(self, key):
        self.signature = key.sign_digest(self.signing_hash())
        return self

    def sender(self):
        """The checksummed address that signed the transaction."""
        if self.signature is None:
            raise ValueError("transaction is not signed")
        return recover_address(self.signing_hash(), *self.signature)

    @classmethod
    def decode(cls, raw):
        """Parse canonical transaction bytes (refuses anything non-canonical)."""
        import cbor2
        raw = bytes(raw)
        items = cbor2.loads(raw)
        if not isinstance(items, list) or len(items) != 13:
            raise ValueError("want a 13-item array")
        sig = items[12]
        if sig is not None:
            sig = (sig[0], bytes(sig[1]), bytes(sig[2]))
        al = items[10]
        if al is not None:
            al = [(bytes(a), [bytes(k) for k in ks]) for a, ks in al]
        tx = cls(*items[:10], access_list=al, payload=items[11], signature=sig)
        if tx.encode() != raw:
            raise ValueError("bytes are not the canonical encoding")
        return tx

    def __repr__(self):
        return "Tx(%s)" % ", ".join("%s=%r" % (f, getattr(self, f)) for f in self.FIELDS)
