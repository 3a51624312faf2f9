# Splitting collected fees among stakeholders with exact remainders.
from decimal import Decimal, ROUND_DOWN


def split_int(total, shares):
    weight = sum(shares.values())
    out = {k: total * w // weight for k, w in shares.items()}
    leftover = total - sum(out.values())
    for k in sorted(shares, key=lambda k: (-shares[k], k))[:leftover]:
        out[k] += 1
    return out


def split_dec(total, shares):
    weight = sum(shares.values())
    q = Decimal("0.0001")
    out = {k: (total * w / weight).quantize(q, rounding=ROUND_DOWN) for k, w in shares.items()}
    dust = total - sum(out.values())
    return out, dust


shares = {"treasury": 50, "stakers": 30, "devs": 15, "insurance": 5}
for total in [100, 101, 7, 0, 999_999]:
    r = split_int(total, shares)
    print(total, r, sum(r.values()) == total)
odd = {"a": 1, "b": 1, "c": 1}
print(split_int(10, odd), split_int(11, odd))
out, dust = split_dec(Decimal("1000.00"), odd)
print(out, dust, sum(out.values()) + dust)
out, dust = split_dec(Decimal("12.3456789"), shares)
print({k: str(v) for k, v in out.items()}, dust)
