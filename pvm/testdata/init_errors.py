class Strict:
    def __init__(self, x):
        if x < 0:
            raise ValueError(f"x must be >= 0, got {x}")
        self.x = x
try:
    Strict(-1)
except ValueError as e:
    print(e)
print(Strict(3).x)
class Bad:
    def __init__(self):
        return 5
try:
    Bad()
except TypeError as e:
    print("TypeError:", e)
class NoArgs:
    pass
try:
    NoArgs(1)
except TypeError as e:
    print("TypeError:", e)
class Req:
    def __init__(self, a, b):
        pass
for args in [(1,), (1, 2, 3)]:
    try:
        Req(*args)
    except TypeError as e:
        print("TypeError:", e)
try:
    Req(1, c=2)
except TypeError as e:
    print("TypeError:", e)
