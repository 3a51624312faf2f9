# An NFT registry: minting, ownership, approvals, transfers and metadata hashes.
import hashlib
import json


class NFT:
    def __init__(self):
        self.owner_of = {}
        self.approved = {}
        self.meta = {}
        self.next_id = 1

    def mint(self, to, attrs):
        tid = self.next_id
        self.next_id += 1
        self.owner_of[tid] = to
        blob = json.dumps(attrs, sort_keys=True, separators=(",", ":")).encode()
        self.meta[tid] = hashlib.sha256(blob).hexdigest()[:16]
        return tid

    def approve(self, owner, tid, spender):
        if self.owner_of.get(tid) != owner:
            raise PermissionError(f"{owner} does not own #{tid}")
        self.approved[tid] = spender

    def transfer(self, caller, tid, to):
        owner = self.owner_of.get(tid)
        if owner is None:
            raise KeyError(tid)
        if caller != owner and self.approved.get(tid) != caller:
            raise PermissionError(f"{caller} may not move #{tid}")
        self.owner_of[tid] = to
        self.approved.pop(tid, None)

    def tokens_of(self, who):
        return sorted(t for t, o in self.owner_of.items() if o == who)


n = NFT()
ids = [n.mint("ann", {"hat": "red", "lvl": i}) for i in range(3)] + [n.mint("bob", {"hat": "blue"})]
print(ids, n.meta[1], n.meta[4], n.meta[1] == n.meta[2])
n.approve("ann", 2, "market")
steps = [("market", 2, "cy"), ("market", 2, "dee"), ("bob", 1, "bob"), ("ann", 1, "bob"), ("zed", 9, "x")]
for caller, tid, to in steps:
    try:
        n.transfer(caller, tid, to)
        print("moved", tid, "->", to)
    except PermissionError as e:
        print("denied:", e)
    except KeyError as e:
        print("no token", e)
try:
    n.approve("ann", 4, "market")
except PermissionError as e:
    print("denied:", e)
print({w: n.tokens_of(w) for w in ["ann", "bob", "cy", "dee"]})
