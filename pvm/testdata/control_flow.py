for i in range(5):
    if i == 1:
        continue
    if i == 4:
        break
    print("i", i)
else:
    print("no break")
for i in range(3):
    pass
else:
    print("loop done", i)
n = 0
while n < 5:
    n += 1
    if n == 10:
        break
else:
    print("while else", n)
x = 7
if x < 5:
    print("small")
elif x < 10:
    print("medium")
else:
    print("large")
print("yes" if x else "no", x if x > 100 else -x)
print(1 < x < 10, 1 < x > 10, 1 == 1 == 1, 3 > 2 > 1 > 0)
print(x and 0, 0 or "default", None or [] or "last", not x, not not x)
for i, ch in enumerate("ab", start=1):
    print(i, ch)
for a, b in zip([1, 2, 3], "xyz"):
    print(a, b)
while True:
    n -= 1
    if n < 2:
        break
print(n)
if (m := 10) > 5:
    print("walrus", m)
data = [1, 2, 3, 4]
while (v := data.pop()) > 2:
    print("popped", v)
