class Ledger:
    def __init__(self):
        self.entries = {}
    def get(self, k):
        return self.entries[k]
def report(ledger, keys):
    return [ledger.get(k) for k in keys]
l = Ledger()
l.entries["a"] = 1
print(report(l, ["a"]))
print(report(l, ["a", "b"]))
