# A name registry with expiry, renewals and reverse lookup.
import re

VALID = re.compile(r"^[a-z0-9](?:[a-z0-9-]{1,30}[a-z0-9])?$")


class Registry:
    PERIOD = 1000

    def __init__(self):
        self.names = {}
        self.reverse = {}

    def register(self, name, owner, now):
        if not VALID.match(name):
            raise ValueError(f"invalid name {name!r}")
        rec = self.names.get(name)
        if rec and rec["expires"] > now:
            raise KeyError(name)
        self.names[name] = {"owner": owner, "expires": now + self.PERIOD}
        self.reverse.setdefault(owner, []).append(name)
        return self.names[name]["expires"]

    def renew(self, name, owner, now):
        rec = self.names[name]
        if rec["owner"] != owner:
            raise PermissionError(f"{owner} does not own {name}")
        rec["expires"] = max(rec["expires"], now) + self.PERIOD
        return rec["expires"]

    def resolve(self, name, now):
        rec = self.names.get(name)
        return rec["owner"] if rec and rec["expires"] > now else None


r = Registry()
ops = [
    ("register", "alice", "0xa", 0), ("register", "bob-1", "0xb", 10), ("register", "alice", "0xc", 500),
    ("register", "-bad", "0xc", 0), ("register", "UPPER", "0xc", 0), ("renew", "alice", "0xb", 600),
    ("renew", "alice", "0xa", 900), ("register", "alice", "0xc", 1500), ("register", "alice", "0xc", 1901),
    ("register", "a", "0xd", 0), ("register", "ab", "0xd", 0),
]
for op, name, who, now in ops:
    try:
        if op == "register":
            print(op, name, "->", r.register(name, who, now))
        else:
            print(op, name, "->", r.renew(name, who, now))
    except KeyError as e:
        print(op, name, "taken", e)
    except (ValueError, PermissionError) as e:
        print(op, name, type(e).__name__, e)
print([r.resolve(n, t) for n, t in [("alice", 1000), ("alice", 2000), ("bob-1", 1009), ("bob-1", 1010), ("zz", 0)]])
print(r.reverse)
print(sorted(r.names.items(), key=lambda kv: kv[1]["expires"]))
