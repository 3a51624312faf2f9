# hashlib: every whitelisted algorithm, incremental updates, copies.
import hashlib

msgs = [b"", b"abc", b"The quick brown fox jumps over the lazy dog", bytes(range(256)) * 3]
for name in ["sha256", "sha512", "sha3_256", "blake2b"]:
    for m in msgs:
        h = hashlib.new(name, m)
        print(name, len(m), h.hexdigest()[:24], h.digest_size)
h = hashlib.sha256()
for chunk in [b"The quick ", b"brown fox ", b"jumps over the lazy dog"]:
    h.update(chunk)
print(h.hexdigest() == hashlib.sha256(msgs[2]).hexdigest())
a = hashlib.sha512(b"prefix")
b = a.copy()
a.update(b"-one")
b.update(b"-two")
print(a.hexdigest()[:16], b.hexdigest()[:16], a.name, b.block_size)
print(hashlib.blake2b(b"key", digest_size=32).hexdigest(), hashlib.blake2b(digest_size=8).hexdigest())
print(hashlib.sha3_256(b"abc").digest()[:8], hashlib.sha256(b"abc").digest().hex()[:8])
print(hashlib.sha256("unicode é".encode()).hexdigest()[:20])


def address_of(pubkey: bytes) -> str:
    return "0x" + hashlib.sha3_256(pubkey).hexdigest()[-40:]


print(address_of(b"\x02" + bytes(32)), address_of(b"\x03" * 33))
chain = b"genesis"
for i in range(5):
    chain = hashlib.sha256(chain + i.to_bytes(4, "big")).digest()
print(chain.hex())
try:
    hashlib.sha256("not bytes")
except TypeError as e:
    print("TypeError:", e)
