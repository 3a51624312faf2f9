# A timelock queue of admin actions that execute after a delay.
from collections import deque
from dataclasses import dataclass, field


@dataclass(order=True)
class Action:
    eta: int
    seq: int
    name: str = field(compare=False)
    args: tuple = field(compare=False, default=())


class Timelock:
    DELAY, GRACE = 10, 20

    def __init__(self):
        self.queued = []
        self.done = deque(maxlen=5)
        self.seq = 0

    def queue(self, now, name, *args):
        self.seq += 1
        a = Action(now + self.DELAY, self.seq, name, args)
        self.queued.append(a)
        self.queued.sort()
        return a.seq

    def cancel(self, seq):
        before = len(self.queued)
        self.queued = [a for a in self.queued if a.seq != seq]
        return before != len(self.queued)

    def execute(self, now):
        ran, stale = [], []
        keep = []
        for a in self.queued:
            if a.eta > now:
                keep.append(a)
            elif now > a.eta + self.GRACE:
                stale.append(a.name)
            else:
                ran.append(f"{a.name}{a.args}")
                self.done.append(a.seq)
        self.queued = keep
        return ran, stale


t = Timelock()
t.queue(0, "set_fee", 30)
t.queue(3, "pause")
s = t.queue(5, "upgrade", "v2")
t.queue(1, "mint", "treasury", 1000)
print([(a.eta, a.name) for a in t.queued])
print(t.cancel(s), t.cancel(99))
print(t.execute(9), t.execute(12), t.execute(100))
t.queue(100, "late")
print(t.execute(140), list(t.done), t.queued)
