# A limit order book whose price levels are kept sorted with a hand-written
# binary search (no bisect module on the whitelist).
def bisect_left(a, x):
    lo, hi = 0, len(a)
    while lo < hi:
        mid = (lo + hi) // 2
        if a[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo


def insort(a, x):
    i = bisect_left(a, x)
    if i < len(a) and a[i] == x:
        return False
    a.insert(i, x)
    return True


class Book:
    def __init__(self):
        self.bid_prices = []   # ascending; best bid is last
        self.ask_prices = []   # ascending; best ask is first
        self.levels = {"buy": {}, "sell": {}}
        self.trades = []
        self.seq = 0

    def add(self, side, price, qty):
        self.seq += 1
        oid = self.seq
        if side == "buy":
            while qty and self.ask_prices and self.ask_prices[0] <= price:
                qty = self._match("sell", self.ask_prices, 0, oid, qty)
        else:
            while qty and self.bid_prices and self.bid_prices[-1] >= price:
                qty = self._match("buy", self.bid_prices, -1, oid, qty)
        if qty:
            prices = self.bid_prices if side == "buy" else self.ask_prices
            insort(prices, price)
            self.levels[side].setdefault(price, []).append([oid, qty])
        return oid

    def _match(self, other, prices, idx, oid, qty):
        p = prices[idx]
        queue = self.levels[other][p]
        head = queue[0]
        n = min(qty, head[1])
        self.trades.append((oid, head[0], p, n))
        head[1] -= n
        qty -= n
        if head[1] == 0:
            queue.pop(0)
        if not queue:
            del self.levels[other][p]
            prices.pop(idx)
        return qty

    def depth(self):
        bids = [(p, sum(q for _, q in self.levels["buy"][p])) for p in reversed(self.bid_prices)]
        asks = [(p, sum(q for _, q in self.levels["sell"][p])) for p in self.ask_prices]
        return bids, asks


b = Book()
for side, price, qty in [("sell", 105, 10), ("sell", 103, 5), ("sell", 103, 7), ("buy", 99, 20),
                         ("buy", 101, 4), ("sell", 110, 1), ("buy", 104, 15), ("sell", 100, 30),
                         ("buy", 98, 3), ("buy", 106, 2)]:
    print("order", b.add(side, price, qty), side, price, qty)
for t in b.trades:
    print("trade taker=%d maker=%d px=%d qty=%d" % t)
bids, asks = b.depth()
print("bids", bids)
print("asks", asks)
print("spread", asks[0][0] - bids[0][0] if bids and asks else None)
print([bisect_left([1, 3, 3, 5], x) for x in range(7)])
