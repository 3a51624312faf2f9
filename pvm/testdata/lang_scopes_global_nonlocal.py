# global and nonlocal, class scopes and comprehension scopes.
counter = 0
items = []


def bump(n=1):
    global counter
    counter += n
    items.append(counter)
    return counter


bump(), bump(5)
print(counter, items)


def outer():
    x = 1
    log = []

    def mid():
        nonlocal x
        x += 10

        def inner():
            nonlocal x
            x *= 2
            return x

        log.append(inner())
        return x

    mid()
    mid()
    return x, log


print(outer())


def make_global():
    global created
    created = "yes"


make_global()
print(created)


class K:
    y = 5
    vals = [y * i for i in range(3)] if False else None
    doubled = (lambda y=y: y * 2)()

    def method(self):
        try:
            return y_global
        except NameError:
            return "no global y"


print(K.y, K.vals, K.doubled, K().method())
y_global = 1
print(K().method())

x = "module"


def reads():
    return x


def shadows():
    x = "local"
    return x, reads()


print(shadows(), x)
n = 10
squares = [n * n for n in range(4)]
print(squares, n)
total = sum(i for i in range(n))
print(total)


def counter_factory():
    count = 0

    def incr():
        nonlocal count
        count += 1
        return count

    def reset():
        nonlocal count
        count = 0

    return incr, reset


inc, reset = counter_factory()
print(inc(), inc(), inc(), reset(), inc())
try:
    exec_missing = undefined_name
except NameError as e:
    print("NameError:", e)


def uses_before_global():
    return later_defined()


def later_defined():
    return "found later"


print(uses_before_global())
