values = [0, 1, -1, 0.0, 0.1, "", "a", [], [0], {}, {0: 0}, set(), None, True, False, (), (0,), range(0), range(1)]
print([bool(v) for v in values])
class Empty:
    def __len__(self):
        return 0
class Falsy:
    def __bool__(self):
        return False
print(bool(Empty()), bool(Falsy()), not Empty(), Empty() or "fallback")
if []:
    print("no")
elif {}:
    print("no")
else:
    print("empty containers are false")
print(all([]), any([]), all([1, "a"]), any([0, None, ""]))
