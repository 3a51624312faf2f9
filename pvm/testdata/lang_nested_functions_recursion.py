# Recursion within the 32-frame limit: memoized, mutual, accumulator styles.
def fact(n):
    return 1 if n <= 1 else n * fact(n - 1)


def is_even(n):
    return True if n == 0 else is_odd(n - 1)


def is_odd(n):
    return False if n == 0 else is_even(n - 1)


def hanoi(n, a="A", b="B", c="C", moves=None):
    moves = [] if moves is None else moves
    if n:
        hanoi(n - 1, a, c, b, moves)
        moves.append(a + c)
        hanoi(n - 1, b, a, c, moves)
    return moves


def permutations(xs):
    if len(xs) <= 1:
        return [xs]
    return [[x] + p for i, x in enumerate(xs) for p in permutations(xs[:i] + xs[i + 1:])]


def flatten(x):
    return [y for item in x for y in flatten(item)] if isinstance(x, list) else [x]


def depth(tree):
    return 0 if not isinstance(tree, dict) else 1 + max((depth(v) for v in tree.values()), default=0)


print(fact(20), is_even(10), is_odd(7), len(hanoi(5)), hanoi(2))
print(permutations([1, 2, 3]), flatten([1, [2, [3, [4, [5]]]], 6]))
print(depth({"a": {"b": {"c": 1}}, "d": 2}), depth({}), depth(5))


def gcd(a, b):
    return a if b == 0 else gcd(b, a % b)


def power_set(s):
    if not s:
        return [[]]
    rest = power_set(s[1:])
    return rest + [[s[0]] + r for r in rest]


print(gcd(1071, 462), len(power_set(list(range(5)))), power_set([1, 2]))


def deep(n):
    return n if n == 0 else deep(n - 1)


print(deep(25))
