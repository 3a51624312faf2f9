# Per-account rate limiting with a token bucket and a sliding window.
from collections import deque


class Bucket:
    def __init__(self, capacity, refill_per_block):
        self.capacity, self.rate = capacity, refill_per_block
        self.tokens, self.last = capacity, 0

    def allow(self, block, cost=1):
        self.tokens = min(self.capacity, self.tokens + (block - self.last) * self.rate)
        self.last = block
        if self.tokens >= cost:
            self.tokens -= cost
            return True
        return False


class Window:
    def __init__(self, limit, span):
        self.limit, self.span, self.hits = limit, span, deque()

    def allow(self, block):
        while self.hits and self.hits[0] <= block - self.span:
            self.hits.popleft()
        if len(self.hits) < self.limit:
            self.hits.append(block)
            return True
        return False


buckets, windows = {}, {}
calls = [("a", 1), ("a", 1), ("a", 1), ("a", 1), ("b", 2), ("a", 3), ("a", 3), ("a", 10), ("b", 10), ("a", 10), ("a", 11)]
for who, blk in calls:
    b = buckets.setdefault(who, Bucket(3, 1))
    w = windows.setdefault(who, Window(2, 5))
    print(who, blk, "bucket" if b.allow(blk) else "-", "window" if w.allow(blk) else "-", b.tokens, list(w.hits))
print({k: v.tokens for k, v in buckets.items()})
