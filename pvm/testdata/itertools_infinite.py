from itertools import count, cycle, repeat, islice, takewhile, dropwhile, accumulate
import itertools

print(list(islice(count(), 5)), list(islice(count(10, 5), 3)), list(islice(count(1.5, 0.5), 3)))
print(list(islice(cycle("AB"), 5)), list(repeat("x", 3)), list(islice(repeat(7), 2)))
print(list(map(pow, range(5), repeat(2))))
print(list(takewhile(lambda x: x < 5, count(1))), list(dropwhile(lambda x: x < 3, [1, 2, 3, 4, 1])))
print(list(accumulate([1, 2, 3, 4])), list(accumulate([3, 1, 4, 1, 5], max)))
print(list(accumulate([1, 2, 3], initial=100)), list(accumulate([])))
print(list(accumulate([2, 3, 4], lambda a, b: a * b)))
print(list(islice("ABCDEFG", 2)), list(islice("ABCDEFG", 2, 4)), list(islice("ABCDEFG", 2, None)))
print(list(islice("ABCDEFG", 0, None, 2)), list(islice(range(10), 1, 8, 3)))
try:
    islice("abc", -1)
except ValueError as e:
    print("ValueError", e)
ids = itertools.count(1000)
print(next(ids), next(ids), next(ids))
balances = [100, -20, -30, 50]
print(list(itertools.accumulate(balances)))
