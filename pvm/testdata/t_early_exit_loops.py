def find_pair(nums, target):
    seen = {}
    for i, n in enumerate(nums):
        if target - n in seen:
            return seen[target - n], i
        seen[n] = i
    return None
print(find_pair([2, 7, 11, 15], 9), find_pair([1, 2], 10), find_pair([3, 3], 6))
def first_dup(s):
    seen = set()
    for ch in s:
        if ch in seen:
            return ch
        seen.add(ch)
print(first_dup("abcdefgdc"), first_dup("abc"))
