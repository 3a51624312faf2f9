# Sorting: keys, reverse, stability, tuples, cmp_to_key, min/max keys.
from functools import cmp_to_key

people = [("ann", 31, 5.5), ("bob", 25, 6.1), ("cy", 31, 5.9), ("dee", 25, 5.5), ("eve", 40, 5.0)]
print(sorted(people))
print(sorted(people, key=lambda p: p[1]))
print(sorted(people, key=lambda p: (-p[1], p[0])))
print(sorted(people, key=lambda p: p[2], reverse=True))
print([p[0] for p in sorted(sorted(people, key=lambda p: p[0], reverse=True), key=lambda p: p[1])])
words = ["banana", "Apple", "cherry", "apple", "Banana", "date"]
print(sorted(words), sorted(words, key=str.lower), sorted(words, key=len), sorted(words, key=lambda w: (len(w), w)))
print(max(words, key=len), min(words, key=len), max(people, key=lambda p: p[2]), min([], default=None))
nums = [5, -3, 2, -8, 7, 0]
print(sorted(nums, key=abs), sorted(nums, reverse=True), max(nums, key=abs), min(nums, key=lambda x: (x % 3, x)))
nums.sort(key=lambda x: -x)
print(nums)


def cmp(a, b):
    if a[1] != b[1]:
        return b[1] - a[1]
    return (a[0] > b[0]) - (a[0] < b[0])


print(sorted(people, key=cmp_to_key(cmp)))
print(sorted({"b": 2, "a": 3, "c": 1}.items(), key=lambda kv: kv[1]))
print(sorted("hello world"), sorted((3, 1, 2)), sorted({3: "x", 1: "y"}))
records = [{"id": 3, "v": "c"}, {"id": 1, "v": "a"}, {"id": 2, "v": "b"}]
records.sort(key=lambda r: r["id"])
print([r["v"] for r in records])
print(sorted([[3, 1], [1, 2], [1, 1], [2]]), sorted([(1, "b"), (1, "a"), (0, "z")]))
print(sorted([0.5, -1, 3, 2.25, True]), sorted(["10", "9", "100"]), sorted(["10", "9", "100"], key=int))
ranked = sorted(enumerate([40, 10, 30]), key=lambda t: t[1], reverse=True)
print([i for i, _ in ranked])
stable = sorted([("x", 1), ("y", 1), ("z", 0), ("w", 1)], key=lambda t: t[1])
print(stable)
