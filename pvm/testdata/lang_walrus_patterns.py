# Assignment expressions in loops, comprehensions and conditions.
data = [3, 8, 1, 9, 4, 12, 7]
if (n := len(data)) > 5:
    print(f"long list of {n}")
pos = 0
while (chunk := data[pos:pos + 3]):
    print(chunk, sum(chunk))
    pos += 3
print([y for x in data if (y := x * 2) > 10])
print(y)
totals = [acc := 0] + [acc := acc + x for x in data]
print(totals, acc)
lines = iter(["a=1", "b=2", "", "c=3"])
pairs = {}
while (line := next(lines, None)) is not None:
    if not line:
        continue
    k, _, v = line.partition("=")
    pairs[k] = int(v)
print(pairs)
print(any((hit := x) > 8 for x in data), hit)
print(all((miss := x) < 9 for x in data), miss)


def find(xs, pred):
    for x in xs:
        if (r := pred(x)) is not None:
            return x, r
    return None


print(find(data, lambda x: x // 4 if x % 4 == 0 else None))
print([(a, b) for a in range(4) if (b := a * a) % 2 == 0])
stats = {"max": (mx := max(data)), "min": (mn := min(data)), "span": mx - mn}
print(stats)
print((w := 5) + w, w)
