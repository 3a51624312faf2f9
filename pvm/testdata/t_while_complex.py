n, steps = 27, 0
while n != 1 and steps < 1000:
    n = n // 2 if n % 2 == 0 else 3 * n + 1
    steps += 1
print(steps)
a, b = 0, 1
fibs = []
while len(fibs) < 12:
    fibs.append(a)
    a, b = b, a + b
print(fibs)
