records = [("b", 2), ("a", 2), ("c", 1), ("d", 3), ("e", 1)]
print(sorted(records, key=lambda r: r[1]))
print(sorted(records, key=lambda r: r[1], reverse=True))
print(sorted(records, key=lambda r: -r[1]))
nums = [5, -2, 3, -8, 0, 7, -1]
print(sorted(nums), sorted(nums, key=abs), sorted(nums, key=lambda x: (x % 3, x)))
nums.sort(key=lambda x: x * x, reverse=True)
print(nums)
big = [(i * 37) % 101 for i in range(60)]
print(sorted(big)[:10], sorted(big)[-3:], sorted(big, reverse=True)[:3])
print(sorted(["b10", "a2", "b9", "a10"], key=lambda s: (s[0], int(s[1:]))))
try:
    sorted([1, "a"])
except TypeError as e:
    print("TypeError:", e)
print(sorted([[3, 1], [2, 9], [3, 0]]), sorted([(1, None)]) if True else "")
print(sorted([0.5, 1, -2.5, True, False]))
