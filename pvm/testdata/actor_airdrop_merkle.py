# An airdrop claimed with Merkle proofs (sha256 over sorted pairs).
import hashlib


def h(b):
    return hashlib.sha256(b).digest()


def leaf(addr, amount):
    return h(f"{addr}:{amount}".encode())


def parent(a, b):
    return h(min(a, b) + max(a, b))


def build(leaves):
    levels = [leaves]
    while len(levels[-1]) > 1:
        cur = levels[-1]
        if len(cur) % 2:
            cur = cur + [cur[-1]]
        levels.append([parent(cur[i], cur[i + 1]) for i in range(0, len(cur), 2)])
    return levels


def proof(levels, idx):
    out = []
    for level in levels[:-1]:
        if len(level) % 2:
            level = level + [level[-1]]
        out.append(level[idx ^ 1])
        idx //= 2
    return out


def verify(root, lf, prf):
    acc = lf
    for sib in prf:
        acc = parent(acc, sib)
    return acc == root


drops = [("0xa1", 100), ("0xb2", 250), ("0xc3", 75), ("0xd4", 5), ("0xe5", 1000)]
levels = build([leaf(a, n) for a, n in drops])
root = levels[-1][0]
print(root.hex()[:32], [len(l) for l in levels])
claimed = set()
for i, (addr, amt) in enumerate(drops):
    prf = proof(levels, i)
    ok = verify(root, leaf(addr, amt), prf)
    print(addr, amt, len(prf), ok)
    claimed.add(addr)
print(verify(root, leaf("0xa1", 101), proof(levels, 0)), verify(root, leaf("0xb2", 250), proof(levels, 0)))
print(sorted(claimed), len(claimed))
