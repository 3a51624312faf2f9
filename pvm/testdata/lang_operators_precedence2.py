# Operator precedence, chained comparisons, boolean short-circuit values.
print(2 + 3 * 4 ** 2 // 5 % 7, -2 ** 2, (-2) ** 2, 2 ** -1, 2 ** 3 ** 2, not 1 == 2)
print(1 < 2 < 3, 1 < 3 < 2, 1 == 1.0 != 2, 3 > 2 >= 2 > 1, "a" < "b" < "c", 1 < 2 > 0)
print(0 or "default", "" or [] or None, 1 and 2 and 3, 0 and crash if False else "short", None or 0)
print([] and 1, [0] and "yes", not [], not [0], (1, 2) or (), "x" and "")
print(1 | 2 ^ 3 & 4, (1 | 2) ^ (3 & 4), 1 << 2 + 1, (1 << 2) + 1, ~0 & 0xF, -5 // 2 * 2)
print(5 if 0 else 6 if 1 else 7, (lambda: 1 if True else 2)(), [i for i in range(5) if i % 2 if i > 1])
print(3 in [1, 2, 3] and 4 not in [1, 2], "a" in "abc" in ["abc"], not 3 in [3])
x = 5
print(0 < x < 10, x < 0 or x > 3, not (x < 0 or x > 3), x == 5 == 5.0)
calls = []


def t(v):
    calls.append(v)
    return v


t(0) and t(1)
t(1) or t(2)
t(1) and t(0) and t(3)
print(calls)
calls.clear()
print(t(1) < t(2) < t(0) < t(5), calls)
print(10 - 3 - 2, 100 / 10 / 5, 2 ** 2 ** 3, 7 % 4 % 3, "%d%%" % 5 + "!", -3 % 5, -(3 % 5))
print(True + True * 2, (True + True) * 2, 1 + 2 == 3 and "ok", [1, 2] * 2 + [3], "ab" * 2 * 2)
a = b = [1]
a += [2]
print(a, b, a is b)
s = t2 = (1,)
s += (2,)
print(s, t2, s is t2)
