# Commit-reveal voting with hashlib digests.
import hashlib


def commit(vote, salt):
    return hashlib.sha256(f"{vote}:{salt}".encode()).hexdigest()


voters = {"ann": ("yes", "s1"), "bob": ("no", "pepper"), "cat": ("yes", "xyz"), "dan": ("no", "42")}
commitments = {who: commit(v, s) for who, (v, s) in voters.items()}
for who in sorted(commitments):
    print(who, commitments[who][:16])

reveals = [("ann", "yes", "s1"), ("bob", "yes", "pepper"), ("cat", "yes", "xyz"), ("dan", "no", "42")]
tally = {}
for who, vote, salt in reveals:
    if commit(vote, salt) != commitments[who]:
        print("rejected", who)
        continue
    tally[vote] = tally.get(vote, 0) + 1
print(tally)

h = hashlib.sha256()
h.update(b"abc")
c = h.copy()
h.update(b"def")
print(h.hexdigest())
print(c.hexdigest() == hashlib.sha256(b"abc").hexdigest(), h.digest_size, h.block_size, h.name)
print(hashlib.sha512(b"").hexdigest()[:32])
print(hashlib.sha3_256(b"cowboy").hexdigest())
print(hashlib.blake2b(b"cowboy", digest_size=16).hexdigest())
print(hashlib.blake2b(b"cowboy").hexdigest()[:20])
print(hashlib.new("sha256", b"x").hexdigest() == hashlib.sha256(b"x").hexdigest())
d = hashlib.sha256(b"merkle").digest()
print(type(d).__name__, len(d), d[:4])

# A tiny Merkle root over leaves.
def merkle(leaves):
    level = [hashlib.sha256(x).digest() for x in leaves]
    while len(level) > 1:
        if len(level) % 2:
            level.append(level[-1])
        level = [hashlib.sha256(level[i] + level[i + 1]).digest() for i in range(0, len(level), 2)]
    return level[0].hex()


print(merkle([b"a", b"b", b"c"]))
print(merkle([b"tx%d" % i for i in range(8)]))
