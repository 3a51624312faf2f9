# A descending-price (Dutch) auction settled per block.
class DutchAuction:
    def __init__(self, start_price, floor, drop_per_block, supply, start_block):
        self.start_price, self.floor = start_price, floor
        self.drop, self.supply, self.start = drop_per_block, supply, start_block
        self.sold = []

    def price_at(self, block):
        if block < self.start:
            raise ValueError("auction not started")
        return max(self.floor, self.start_price - (block - self.start) * self.drop)

    def buy(self, who, qty, max_price, block):
        price = self.price_at(block)
        if price > max_price:
            return f"{who}: price {price} above limit {max_price}"
        if self.supply == 0:
            return f"{who}: sold out"
        fill = min(qty, self.supply)
        self.supply -= fill
        self.sold.append((block, who, fill, price))
        return f"{who}: bought {fill} at {price}"


a = DutchAuction(1000, 200, 75, 10, start_block=100)
print([a.price_at(b) for b in range(100, 115, 2)])
orders = [("ann", 3, 800, 101), ("bob", 2, 900, 103), ("cy", 4, 600, 106), ("dee", 5, 500, 108),
          ("eve", 1, 200, 130), ("fay", 1, 10000, 131)]
for who, q, mx, blk in orders:
    print(blk, a.buy(who, q, mx, blk))
try:
    a.price_at(50)
except ValueError as e:
    print("ValueError:", e)
revenue = sum(q * p for _, _, q, p in a.sold)
print("revenue", revenue, "left", a.supply, "buyers", [w for _, w, _, _ in a.sold])
avg = revenue / sum(q for _, _, q, _ in a.sold)
print(f"average price {avg:.2f}")
