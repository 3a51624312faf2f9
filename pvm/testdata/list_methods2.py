a = list(range(10))
print(a.index(5), a.index(5, 3), a.count(3), 3 in a)
a.insert(100, "end")
a.insert(-100, "start")
a.insert(2, "two")
print(a)
print(a.pop(2), a.pop(-1), a.pop())
a.remove("start")
print(a, len(a))
b = [3, 1, 2]
b.extend([x * 10 for x in b])
print(b, sorted(b), b)
b.sort(reverse=True)
print(b)
words = ["banana", "Apple", "cherry", "apple"]
words.sort()
print(words)
words.sort(key=str.lower)
print(words)
print([1, 2, 3] * 0, [] * 5, [[1]] * 2, list(reversed(b)))
stack = []
for c in "(()(()))":
    if c == "(":
        stack.append(c)
    else:
        stack.pop()
print("balanced" if not stack else "unbalanced")
try:
    [1].index(2)
except ValueError as e:
    print(e)
