# if/elif/else ladders, nested conditions, conditional expressions, match vs if.
def classify(n):
    if n < 0:
        kind = "negative"
    elif n == 0:
        kind = "zero"
    elif n < 10:
        kind = "small"
    elif n < 100 and n % 2 == 0:
        kind = "medium even"
    elif n < 100:
        kind = "medium odd"
    else:
        kind = "large"
    return kind


print([classify(n) for n in [-5, 0, 7, 42, 43, 1000]])


def fee_tier(volume, vip=False):
    base = 30 if volume < 1_000 else 20 if volume < 10_000 else 10
    return base // 2 if vip else base


print([fee_tier(v) for v in [10, 5000, 50000]], [fee_tier(v, True) for v in [10, 5000, 50000]])


def grade(score):
    if not isinstance(score, (int, float)):
        return "invalid"
    if score > 100 or score < 0:
        return "out of range"
    for cutoff, letter in ((90, "A"), (80, "B"), (70, "C")):
        if score >= cutoff:
            return letter
    return "F"


print([grade(s) for s in [95, 85.5, 70, 12, 101, "x", None]])
x = 15
msg = "fizzbuzz" if x % 15 == 0 else "fizz" if x % 3 == 0 else "buzz" if x % 5 == 0 else str(x)
print(msg, ["fizzbuzz" if i % 15 == 0 else "fizz" if i % 3 == 0 else "buzz" if i % 5 == 0 else i for i in range(1, 16)])
if []:
    print("no")
elif {}:
    print("no")
elif 0.0:
    print("no")
else:
    print("all falsy")
