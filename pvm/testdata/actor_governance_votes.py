# Token-weighted governance: proposals, quorum, vote changes, tallies.
from collections import defaultdict
from enum import Enum


class Choice(Enum):
    YES = "yes"
    NO = "no"
    ABSTAIN = "abstain"


class Governor:
    def __init__(self, weights, quorum_pct):
        self.weights = weights
        self.quorum = sum(weights.values()) * quorum_pct // 100
        self.props = {}

    def propose(self, pid, title):
        self.props[pid] = {"title": title, "votes": {}}

    def vote(self, pid, who, choice):
        if who not in self.weights:
            raise PermissionError(f"{who} holds no tokens")
        self.props[pid]["votes"][who] = Choice(choice)

    def tally(self, pid):
        t = defaultdict(int)
        for who, ch in self.props[pid]["votes"].items():
            t[ch.value] += self.weights[who]
        turnout = sum(t.values())
        passed = turnout >= self.quorum and t["yes"] > t["no"]
        return dict(sorted(t.items())), turnout, passed


g = Governor({"a": 400, "b": 250, "c": 200, "d": 100, "e": 50}, quorum_pct=40)
g.propose(1, "raise fee")
g.propose(2, "add market")
for pid, who, ch in [(1, "a", "yes"), (1, "b", "no"), (1, "c", "no"), (1, "a", "abstain"), (2, "d", "yes"),
                     (2, "e", "yes"), (2, "b", "no"), (1, "d", "yes"), (2, "z", "yes"), (2, "x", "maybe")]:
    try:
        g.vote(pid, who, ch)
    except (PermissionError, ValueError) as e:
        print(type(e).__name__, e)
for pid in g.props:
    print(pid, g.props[pid]["title"], g.tally(pid))
print("quorum", g.quorum)
