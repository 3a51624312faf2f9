# Truthiness, None handling and identity with singletons.
values = [0, 1, -1, 0.0, 0.1, "", " ", [], [0], (), (None,), {}, {"": 0}, set(), None, True, False, range(0), range(1), b"", b"\x00"]
print([bool(v) for v in values])
print([v for v in values if v][:5])
print(None is None, None == None, None != 0, type(None).__name__, repr(None), str(None))
print(True is True, True == 1, False == 0, True + 0, isinstance(False, int), bool("False"))
x = None
print(x or "fallback", x is None, x is not None, (x if x is not None else 0) + 1)


def maybe(n):
    if n > 0:
        return n
    return None


print([maybe(n) for n in [-1, 2]], [r for r in map(maybe, [3, -3, 0, 4]) if r is not None])


class Empty:
    def __len__(self):
        return 0


class Falsy:
    def __bool__(self):
        return False


class Plain:
    pass


print(bool(Empty()), bool(Falsy()), bool(Plain()), not Empty(), "yes" if Plain() else "no")
print(all([]), any([]), all([1, "a", [0]]), any([0, "", None]), all(x > 0 for x in [1, 2]), any(x > 5 for x in [1, 2]))
print(max([0, None, 3], key=lambda v: v or 0), sorted([None, 2, None, 1], key=lambda v: (v is None, v or 0)))
print(NotImplemented is NotImplemented, ... is Ellipsis, type(...).__name__, bool(...))
flag = False
flag |= True
print(flag, True & False, True ^ True, ~True, -True, True / 2, True // 2)
