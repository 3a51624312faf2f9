# An order book actor built on collections.
from collections import defaultdict, deque, Counter, OrderedDict, namedtuple

Order = namedtuple("Order", "id side price qty owner")


class OrderBook:
    def __init__(self):
        self.bids = defaultdict(deque)
        self.asks = defaultdict(deque)
        self.fills = []
        self.volume = Counter()
        self.next_id = 1

    def submit(self, side, price, qty, owner):
        order = Order(self.next_id, side, price, qty, owner)
        self.next_id += 1
        book, other = (self.bids, self.asks) if side == "buy" else (self.asks, self.bids)
        remaining = qty
        prices = sorted(other) if side == "buy" else sorted(other, reverse=True)
        for p in prices:
            if (side == "buy" and p > price) or (side == "sell" and p < price):
                break
            queue = other[p]
            while queue and remaining:
                resting = queue[0]
                traded = min(remaining, resting.qty)
                remaining -= traded
                self.fills.append((order.id, resting.id, p, traded))
                self.volume[owner] += traded
                self.volume[resting.owner] += traded
                if traded == resting.qty:
                    queue.popleft()
                else:
                    queue[0] = resting._replace(qty=resting.qty - traded)
            if not queue:
                del other[p]
        if remaining:
            book[price].append(order._replace(qty=remaining))
        return order.id

    def depth(self):
        out = OrderedDict()
        for p in sorted(self.asks, reverse=True):
            out["ask %d" % p] = sum(o.qty for o in self.asks[p])
        for p in sorted(self.bids, reverse=True):
            out["bid %d" % p] = sum(o.qty for o in self.bids[p])
        return out


ob = OrderBook()
ob.submit("sell", 101, 5, "ann")
ob.submit("sell", 102, 5, "bob")
ob.submit("buy", 99, 3, "cy")
ob.submit("buy", 102, 7, "dee")
ob.submit("sell", 98, 4, "eve")
print(ob.fills)
print(ob.depth())
print(ob.volume.most_common(3))
print(dict(ob.bids), len(ob.asks))
