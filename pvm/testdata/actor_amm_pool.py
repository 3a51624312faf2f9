# A constant-product AMM pool in integer arithmetic.
class Pool:
    FEE_NUM, FEE_DEN = 997, 1000

    def __init__(self, x, y):
        self.x, self.y = x, y
        self.shares = {"genesis": isqrt(x * y)}
        self.total = self.shares["genesis"]

    def quote(self, dx):
        dx_fee = dx * self.FEE_NUM
        return dx_fee * self.y // (self.x * self.FEE_DEN + dx_fee)

    def swap_x_for_y(self, dx, min_out):
        dy = self.quote(dx)
        if dy < min_out:
            raise ValueError(f"slippage: got {dy}, wanted {min_out}")
        k_before = self.x * self.y
        self.x += dx
        self.y -= dy
        assert self.x * self.y >= k_before
        return dy

    def add_liquidity(self, who, dx, dy):
        share = min(dx * self.total // self.x, dy * self.total // self.y)
        self.x += dx
        self.y += dy
        self.shares[who] = self.shares.get(who, 0) + share
        self.total += share
        return share

    def remove_liquidity(self, who, share):
        have = self.shares.get(who, 0)
        if share > have:
            raise ValueError(f"{who} owns {have} shares")
        dx, dy = share * self.x // self.total, share * self.y // self.total
        self.shares[who] = have - share
        self.total -= share
        self.x -= dx
        self.y -= dy
        return dx, dy

    def price(self):
        return self.y * 10**6 // self.x


def isqrt(n):
    if n < 2:
        return n
    x = n
    y = (x + 1) // 2
    while y < x:
        x, y = y, (y + n // y) // 2
    return x


p = Pool(1_000_000, 2_000_000)
print("shares", p.total, "price", p.price())
for dx in [1000, 50_000, 250_000]:
    print("swap", dx, "->", p.swap_x_for_y(dx, 0), "price", p.price())
try:
    p.swap_x_for_y(10, 100)
except ValueError as e:
    print(e)
s = p.add_liquidity("lp1", 100_000, 100_000)
print("lp1 shares", s, p.shares)
print("remove", p.remove_liquidity("lp1", s // 2))
try:
    p.remove_liquidity("lp2", 1)
except ValueError as e:
    print(e)
print(p.x, p.y, p.total, sum(p.shares.values()) == p.total)
print([isqrt(n) for n in [0, 1, 15, 16, 17, 10**20, 2**127]])
