# Loops with else clauses, nested breaks and search patterns.
def find_first(xs, pred):
    for i, x in enumerate(xs):
        if pred(x):
            break
    else:
        return None
    return i


print(find_first([1, 3, 8, 5], lambda x: x % 2 == 0), find_first([1, 3], lambda x: x > 5), find_first([], bool))
n = 0
while n < 3:
    n += 1
else:
    print("while finished", n)
while True:
    n -= 1
    if n == 0:
        break
else:
    print("not printed")
print("n", n)
primes = []
for cand in range(2, 40):
    for p in primes:
        if p * p > cand:
            primes.append(cand)
            break
        if cand % p == 0:
            break
    else:
        primes.append(cand)
print(primes)
grid = [[1, 2, 3], [4, 99, 6], [7, 8, 9]]
found = None
for r, row in enumerate(grid):
    for c, v in enumerate(row):
        if v == 99:
            found = (r, c)
            break
    else:
        continue
    break
print(found)
i = 0
total = 0
while i < 10:
    i += 1
    if i % 3 == 0:
        continue
    if i > 8:
        break
    total += i
print(i, total)
for x in []:
    pass
else:
    print("empty for runs else")
count = 0
for a in range(3):
    for b in range(3):
        if b > a:
            break
        count += 1
print(count)
