def stats(*nums, precision=2):
    if not nums:
        return None
    mean = sum(nums) / len(nums)
    return round(mean, precision), min(nums), max(nums)
print(stats(), stats(1, 2, 3, 4), stats(*range(10), precision=0))
data = {"precision": 1}
print(stats(1, 2, **data))
first, *rest = stats(5, 6)
print(first, rest)
