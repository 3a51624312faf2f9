# A unidirectional payment channel with signed (hashed) vouchers.
import hashlib


def sign(secret, channel, amount, nonce):
    return hashlib.sha256(f"{secret}|{channel}|{amount}|{nonce}".encode()).hexdigest()


class Channel:
    def __init__(self, cid, payer, payee, deposit, payer_secret):
        self.cid, self.payer, self.payee = cid, payer, payee
        self.deposit = deposit
        self.secret = payer_secret
        self.best = (0, 0)
        self.closed = False

    def submit(self, amount, nonce, sig):
        if self.closed:
            return "closed"
        if sig != sign(self.secret, self.cid, amount, nonce):
            return "bad signature"
        if amount > self.deposit:
            return "exceeds deposit"
        if nonce <= self.best[1]:
            return "stale nonce"
        self.best = (amount, nonce)
        return "accepted"

    def close(self):
        self.closed = True
        paid, _ = self.best
        return {self.payee: paid, self.payer: self.deposit - paid}


ch = Channel("ch-1", "alice", "bob", 1000, "s3cret")
vouchers = [(100, 1, "s3cret"), (250, 2, "s3cret"), (200, 3, "wrong"), (240, 2, "s3cret"), (1001, 4, "s3cret"), (700, 5, "s3cret")]
for amt, nonce, key in vouchers:
    print(amt, nonce, ch.submit(amt, nonce, sign(key, "ch-1", amt, nonce)))
print(ch.close(), ch.submit(800, 6, sign("s3cret", "ch-1", 800, 6)))
print(sign("k", "c", 1, 1)[:12], len(sign("k", "c", 1, 1)))
