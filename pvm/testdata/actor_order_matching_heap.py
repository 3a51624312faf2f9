# A priority queue (binary heap written by hand) for price-time priority matching.
class Heap:
    def __init__(self, key):
        self.a, self.key = [], key

    def push(self, x):
        a = self.a
        a.append(x)
        i = len(a) - 1
        while i and self.key(a[i]) < self.key(a[(i - 1) // 2]):
            a[i], a[(i - 1) // 2] = a[(i - 1) // 2], a[i]
            i = (i - 1) // 2

    def pop(self):
        a = self.a
        top = a[0]
        last = a.pop()
        if a:
            a[0] = last
            i = 0
            while True:
                l, r, m = 2 * i + 1, 2 * i + 2, i
                if l < len(a) and self.key(a[l]) < self.key(a[m]):
                    m = l
                if r < len(a) and self.key(a[r]) < self.key(a[m]):
                    m = r
                if m == i:
                    break
                a[i], a[m] = a[m], a[i]
                i = m
        return top

    def peek(self):
        return self.a[0] if self.a else None

    def __len__(self):
        return len(self.a)


bids = Heap(lambda o: (-o[1], o[0]))
asks = Heap(lambda o: (o[1], o[0]))
trades = []
orders = [(1, "S", 101, 5), (2, "S", 100, 3), (3, "B", 99, 4), (4, "B", 101, 6), (5, "S", 98, 10), (6, "B", 102, 2)]
for seq, side, px, qty in orders:
    book, other = (bids, asks) if side == "B" else (asks, bids)
    cross = (lambda p: p <= px) if side == "B" else (lambda p: p >= px)
    while qty and len(other) and cross(other.peek()[1]):
        oseq, opx, oqty = other.pop()
        n = min(qty, oqty)
        trades.append((seq, oseq, opx, n))
        qty -= n
        if oqty > n:
            other.push((oseq, opx, oqty - n))
    if qty:
        book.push((seq, px, qty))
print(trades)
print(sorted(bids.a), sorted(asks.a))
h = Heap(lambda x: x)
for v in [5, 3, 9, 1, 7, 2, 8]:
    h.push(v)
print([h.pop() for _ in range(len(h))])
