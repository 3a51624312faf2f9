def find(xs, target):
    i = 0
    while i < len(xs):
        if xs[i] == target:
            break
        i += 1
    else:
        return -1
    return i
print(find([1, 2, 3], 2), find([1, 2, 3], 5))
for n in range(2, 20):
    for d in range(2, n):
        if n % d == 0:
            break
    else:
        print(n, end=" ")
print()
count = 0
while count < 3:
    count += 1
    try:
        if count == 2:
            continue
    finally:
        print("f", count)
