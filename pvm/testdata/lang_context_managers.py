# Context managers: __enter__/__exit__, suppression, several items, nesting.
class Tx:
    def __init__(self, name, log, swallow=False):
        self.name, self.log, self.swallow = name, log, swallow

    def __enter__(self):
        self.log.append(f"begin {self.name}")
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            self.log.append(f"commit {self.name}")
        else:
            self.log.append(f"rollback {self.name}: {exc_type.__name__}({exc})")
        return self.swallow


log = []
with Tx("a", log) as t:
    log.append(f"inside {t.name}")
with Tx("b", log, swallow=True):
    raise ValueError("bad input")
try:
    with Tx("c", log):
        1 / 0
except ZeroDivisionError as e:
    log.append(f"outer saw {e}")
with Tx("d", log) as d, Tx("e", log, swallow=True) as e:
    log.append(f"both {d.name}{e.name}")
    raise KeyError("k")
print("\n".join(log))


def gen_in_with():
    log2 = []
    for i in range(3):
        with Tx(str(i), log2, swallow=True):
            if i == 1:
                continue
            if i == 2:
                break
            log2.append("body")
    return log2


print(gen_in_with())


def ret_in_with():
    log3 = []
    with Tx("r", log3):
        return log3
print(ret_in_with())



class Suppress:
    def __init__(self, *types):
        self.types = types

    def __enter__(self):
        return None

    def __exit__(self, et, ev, tb):
        return et is not None and issubclass(et, self.types)


with Suppress(KeyError, IndexError):
    [][1]
print("suppressed IndexError")
try:
    with Suppress(KeyError):
        int("x")
except ValueError as e:
    print("not suppressed:", e)


class NoExit:
    def __enter__(self):
        return 1


try:
    with NoExit():
        pass
except (AttributeError, TypeError) as e:
    print(type(e).__name__)
