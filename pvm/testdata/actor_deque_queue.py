# A message queue actor with bounded history using collections.deque.
from collections import deque


class Mailbox:
    def __init__(self, capacity):
        self.pending = deque()
        self.history = deque(maxlen=capacity)
        self.dropped = 0

    def push(self, msg, urgent=False):
        if urgent:
            self.pending.appendleft(msg)
        else:
            self.pending.append(msg)

    def process(self, n):
        done = []
        while self.pending and len(done) < n:
            msg = self.pending.popleft()
            if msg.startswith("bad"):
                self.dropped += 1
                continue
            done.append(msg.upper())
            self.history.append(msg)
        return done


mb = Mailbox(3)
for m in ["a1", "a2", "bad3", "a4", "a5"]:
    mb.push(m)
mb.push("urgent0", urgent=True)
print(list(mb.pending))
print(mb.process(3), mb.dropped)
print(mb.process(10), list(mb.history), mb.history.maxlen)

d = deque([1, 2, 3, 4, 5])
d.rotate(2)
print(d)
d.rotate(-3)
print(d, d[0], d[-1], len(d), 3 in d)
d.extendleft([10, 20])
print(d, d.count(20), d.index(4))
d.remove(10)
d.reverse()
print(d, d.pop(), d.popleft())
d.insert(1, 99)
print(d, list(reversed(d)))
d[0] = -1
del d[1]
print(d, d == deque([-1, 4, 5, 1][: len(d)]))
try:
    deque().pop()
except IndexError as e:
    print("IndexError:", e)
try:
    deque().popleft()
except IndexError as e:
    print("IndexError:", e)
w = deque(maxlen=3)
for i in range(6):
    w.append(i)
    print(list(w), sum(w) / len(w))
w.clear()
print(w, bool(w), deque("abc", 2))
window, out = deque(), []
for x in [5, 1, 4, 2, 8, 3, 7]:
    window.append(x)
    if len(window) > 3:
        window.popleft()
    out.append(max(window))
print(out)
