"""secp256k1 keys, addresses (EIP-55) and low-s recoverable signatures."""

import hashlib
import hmac
import os
import unicodedata

from Cryptodome.Hash import keccak as _keccak
from ecdsa import SECP256k1
from ecdsa.ellipticcurve import PointJacobi
from ecdsa.rfc6979 import generate_k

_G = SECP256k1.generator
_N = SECP256k1.order
_P = SECP256k1.curve.p()

DEVNET_MNEMONIC = "test test test test test test test test test test test junk"


def keccak256(*parts):
    h = _keccak.new(digest_bits=256)
    for p in parts:
        h.update(bytes(p))
    return h.digest()


def to_checksum_address(addr):
    """EIP-55 mixed-case form of a 20-byte address (bytes or hex)."""
    raw = address_bytes(addr)
    low = raw.hex()
    h = keccak256(low.encode()).hex()
    return "0x" + "".join(c.upper() if int(h[i], 16) >= 8 else c for i, c in enumerate(low))


def address_bytes(addr):
    """20 bytes from bytes or a 0x hex address; mixed case must be a valid checksum."""
    if isinstance(addr, (bytes, bytearray)):
        if len(addr) != 20:
            raise ValueError("address is %d bytes, want 20" % len(addr))
        return bytes(addr)
    if isinstance(addr, Key):
        return addr.address_bytes
    s = str(addr)
    if not (s.startswith("0x") or s.startswith("0X")) or len(s) != 42:
        raise ValueError("invalid address %r: want 0x followed by 40 hex digits" % s)
    raw = bytes.fromhex(s[2:])
    body = s[2:]
    if body != body.lower() and body != body.upper() and to_checksum_address(raw) != "0x" + body:
        raise ValueError("invalid address %r: bad EIP-55 checksum" % s)
    return raw


def _bip39_seed(mnemonic, passphrase=""):
    m = unicodedata.normalize("NFKD", mnemonic).encode()
    salt = unicodedata.normalize("NFKD", "mnemonic" + passphrase).encode()
    return hashlib.pbkdf2_hmac("sha512", m, salt, 2048)


def _compressed(k):
    pt = k * _G
    return bytes([2 + (pt.y() & 1)]) + pt.x().to_bytes(32, "big")


def _bip32(seed, path):
    """Private key at a BIP-32 path such as "m/44'/60'/0'/0/0"."""
    i = hmac.new(b"Bitcoin seed", seed, hashlib.sha512).digest()
    k, chain = int.from_bytes(i[:32], "big"), i[32:]
    for part in path.split("/")[1:]:
        hard = part.endswith("'") or part.endswith("h")
        idx = int(part.rstrip("'h")) + (0x80000000 if hard else 0)
        if hard:
            data = b"\x00" + k.to_bytes(32, "big")
        else:
            data = _compressed(k)
        i = hmac.new(chain, data + idx.to_bytes(4, "big"), hashlib.sha512).digest()
        il = int.from_bytes(i[:32], "big")
        if il >= _N:
            raise ValueError("invalid BIP-32 child at %s" % part)
        k, chain = (il + k) % _N, i[32:]
        if k == 0:
            raise ValueError("invalid BIP-32 child at %s" % part)
    return k


class Key:
    """A secp256k1 private key that signs Cowboy transactions."""

    def __init__(self, secret):
        if isinstance(secret, (bytes, bytearray)):
            secret = int.from_bytes(secret, "big")
        if not 0 < secret < _N:
            raise ValueError("private key out of range")
        self._d = secret
        pub = secret * _G
        self.public_key = pub.x().to_bytes(32, "big") + pub.y().to_bytes(32, "big")
        self.address_bytes = keccak256(self.public_key)[12:]
        self.address = to_checksum_address(self.address_bytes)

    @classmethod
    def generate(cls):
        while True:
            d = int.from_bytes(os.urandom(32), "big")
            if 0 < d < _N:
                return cls(d)

    @classmethod
    def from_hex(cls, h):
        h = h[2:] if h.startswith(("0x", "0X")) else h
        b = bytes.fromhex(h)
        if len(b) != 32:
            raise ValueError("private key is %d bytes, want 32" % len(b))
        return cls(b)

    @classmethod
    def from_mnemonic(cls, mnemonic, index=0, passphrase=""):
        """m/44'/60'/0'/0/index of a BIP-39 mnemonic."""
        return cls(_bip32(_bip39_seed(mnemonic, passphrase), "m/44'/60'/0'/0/%d" % index))

    @classmethod
    def dev(cls, index):
        """Devnet account dev0 … dev9 (anyone holds these keys)."""
        if not 0 <= index <= 9:
            raise ValueError("dev accounts are dev0 … dev9")
        return cls.from_mnemonic(DEVNET_MNEMONIC, index)

    @property
    def private_key_hex(self):
        return "0x" + self._d.to_bytes(32, "big").hex()

    def sign_digest(self, digest):
        """Sign a 32-byte digest: (y_parity, r, s) with low s (EIP-2),
        the nonce from RFC 6979 (HMAC-SHA256)."""
        digest = bytes(digest)
        if len(digest) != 32:
            raise ValueError("digest is %d bytes, want 32" % len(digest))
        z = int.from_bytes(digest, "big")
        retry = 0
        while True:
            k = generate_k(_N, self._d, hashlib.sha256, digest, retry_gen=retry)
            retry += 1
            R = k * _G
            r = R.x() % _N
            if r == 0 or R.x() >= _N:
                continue
            s = pow(k, -1, _N) * (z + r * self._d) % _N
            if s == 0:
                continue
            v = R.y() & 1
            if s > _N // 2:
                s, v = _N - s, v ^ 1
            return v, r.to_bytes(32, "big"), s.to_bytes(32, "big")

    def __repr__(self):
        return "Key(%s)" % self.address


def recover_address(digest, y_parity, r, s):
    """The checksummed address that signed digest."""
    r, s = int.from_bytes(r, "big"), int.from_bytes(s, "big")
    if not (0 < r < _N and 0 < s < _N):
        raise ValueError("signature out of range")
    x = r
    alpha = (pow(x, 3, _P) + 7) % _P
    y = pow(alpha, (_P + 1) // 4, _P)
    if y * y % _P != alpha:
        raise ValueError("r is not on the curve")
    if y & 1 != y_parity:
        y = _P - y
    R = PointJacobi(SECP256k1.curve, x, y, 1, _N)
    z = int.from_bytes(bytes(digest), "big")
    rinv = pow(r, -1, _N)
    Q = R * (s * rinv % _N) + _G * ((-z * rinv) % _N)
    pub = Q.x().to_bytes(32, "big") + Q.y().to_bytes(32, "big")
    return to_checksum_address(keccak256(pub)[12:])
