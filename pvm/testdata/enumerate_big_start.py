# enumerate with a start beyond 64 bits, or near the top of them.
e = enumerate("abc", 10**20)
print(next(e), list(e))
print(list(enumerate([1, 2], -(2**70))), list(enumerate([], 2**64)))
print(type(enumerate("a", 2**80)).__name__)
for i, ch in enumerate("xy", start=2**63 - 1):
    print(i, ch)
try:
    enumerate("ab", 1.5)
except TypeError as e:
    print("TypeError", e)
