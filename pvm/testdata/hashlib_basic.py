import hashlib

for name in ["sha256", "sha512", "sha3_256", "blake2b"]:
    f = getattr(hashlib, name)
    h = f(b"abc")
    print(h.name, h.digest_size, h.block_size, h.hexdigest())
    print(f().hexdigest())
    g = f(b"a")
    g2 = g.copy()
    g.update(b"b")
    g.update(bytearray(b"c"))
    print(g.hexdigest() == h.hexdigest(), g.digest() == h.digest(), g2.hexdigest() == f(b"a").hexdigest())
    print(len(h.digest()), type(h.digest()).__name__, h.hexdigest() == h.digest().hex())
    for bad in ["abc", 1, None]:
        try:
            f(bad)
        except TypeError as e:
            print(" ", type(e).__name__, e)
        try:
            h.update(bad)
        except TypeError as e:
            print("  update:", e)

print(hashlib.new("sha256", b"x").hexdigest() == hashlib.sha256(b"x").hexdigest())
print(hashlib.new("SHA256", b"x").name, hashlib.new("sha3_256").name)
print(hashlib.new("blake2b", b"", digest_size=16).hexdigest())
print(hashlib.blake2b(b"a", key=b"k", digest_size=20).hexdigest(), hashlib.blake2b(digest_size=20).name)
k = hashlib.blake2b(b"part1", key=b"secret")
k2 = k.copy()
k.update(b"part2")
k2.update(b"part2")
print(k.hexdigest() == k2.hexdigest(), k.hexdigest() == hashlib.blake2b(b"part1part2", key=b"secret").hexdigest())
s = hashlib.blake2b(digest_size=8)
s.update(b"x" * 1000)
print(s.copy().hexdigest(), s.digest_size)
print(hashlib.sha256(string=b"a").hexdigest())
try:
    hashlib.new("md9")
except ValueError as e:
    print("ValueError:", e)
for kw in [{"digest_size": 65}, {"digest_size": 0}, {"key": b"x" * 65}]:
    try:
        hashlib.blake2b(**kw)
    except ValueError as e:
        print("ValueError:", e)
try:
    hashlib.sha256(b"a", b"b")
except TypeError as e:
    print("TypeError:", e)
try:
    hashlib.sha256(data=b"a")
except TypeError as e:
    print("TypeError:", e)
big = hashlib.sha256()
for i in range(100):
    big.update(str(i).encode())
print(big.hexdigest())
print(hashlib.sha512(b"The quick brown fox jumps over the lazy dog").hexdigest())
