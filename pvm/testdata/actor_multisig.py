# A multisig wallet: proposals, approvals, thresholds and execution.
class MultisigError(Exception):
    def __init__(self, code, detail):
        super().__init__(f"[{code}] {detail}")
        self.code = code


class Multisig:
    def __init__(self, owners, threshold):
        if not 0 < threshold <= len(owners):
            raise MultisigError("E_THRESHOLD", f"{threshold} of {len(owners)}")
        self.owners = list(owners)
        self.threshold = threshold
        self.proposals = {}
        self.next_id = 0
        self.executed = []

    def _owner(self, who):
        if who not in self.owners:
            raise MultisigError("E_AUTH", f"{who} is not an owner")

    def propose(self, who, action, *args):
        self._owner(who)
        pid = self.next_id
        self.next_id += 1
        self.proposals[pid] = {"action": action, "args": args, "approvals": {who}, "done": False}
        return pid

    def approve(self, who, pid):
        self._owner(who)
        p = self.proposals.get(pid)
        if p is None:
            raise MultisigError("E_NOPROP", f"no proposal {pid}")
        if who in p["approvals"]:
            raise MultisigError("E_DUP", f"{who} already approved {pid}")
        p["approvals"].add(who)
        if len(p["approvals"]) >= self.threshold and not p["done"]:
            p["done"] = True
            self.executed.append((pid, p["action"], p["args"]))
            return True
        return False


w = Multisig(["ann", "bob", "cy", "dee"], 3)
p0 = w.propose("ann", "transfer", "eve", 100)
p1 = w.propose("bob", "add_owner", "fay")
steps = [("bob", p0), ("bob", p0), ("zed", p1), ("cy", p0), ("dee", p1), ("ann", 9), ("cy", p1), ("dee", p0)]
for who, pid in steps:
    try:
        print(who, pid, w.approve(who, pid))
    except MultisigError as e:
        print(who, pid, "error", e.code, e)
for pid, action, args in w.executed:
    print("executed", pid, action, args)
print({pid: sorted(p["approvals"]) for pid, p in w.proposals.items()})
try:
    Multisig(["a"], 2)
except MultisigError as e:
    print(e, e.args)
