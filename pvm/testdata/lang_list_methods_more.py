# list methods and idioms.
xs = [5, 3, 8, 1]
xs.append(7)
xs.extend([2, 9])
xs.insert(0, 0)
xs.insert(100, 10)
xs.insert(-1, -1)
print(xs, len(xs), xs.index(8), xs.count(1), xs.pop(), xs.pop(0), xs)
xs.remove(-1)
xs.sort()
print(xs, xs[::-1])
xs.reverse()
print(xs, sorted(xs) == xs[::-1])
ys = xs.copy()
ys[0] = 100
print(xs[0], ys[0], xs == ys, xs < ys, [1, 2] < [1, 3], [1, 2] < [1, 2, 0], [] < [0])
print(xs.index(5, 2) if 5 in xs[2:] else "n/a", 3 in xs, xs * 0, [None] * 3, [[]] * 2)
stack, queue = [], []
for i in range(4):
    stack.append(i)
    queue.append(i)
print(stack.pop(), stack.pop(), queue.pop(0), queue.pop(0), stack, queue)
zs = [3, 1, 2]
zs += (4, 5)
zs *= 2
print(zs, zs.count(1), len(zs))
zs.clear()
print(zs, bool(zs))
m = [[0] * 2 for _ in range(2)]
m[0][0] = 1
alias = [[0] * 2] * 2
alias[0][0] = 1
print(m, alias)
print(list(range(5)), list("abc"), list((1, 2)), list({"k": 1}), list(map(int, "123")))
print(sum([[1], [2, 3]], []), [x for x in [3, 1, 2] if x != 1], min([4, 2, 8]), max([[1, 2], [1, 3]]))
nums = [4, 1, 3]
print(sorted(nums), nums, nums.sort(), nums)
w = ["b", "a"]
w.sort(reverse=True)
print(w, list(enumerate(w, 1)), [i for i, _ in enumerate(w)])
print([1, 2, 3].__len__(), [1, [2, [3]]][1][1][0], [1, 2, 3][-1:] + [0])
