# try/except/else/finally control flow corner cases.
def f1():
    try:
        return "try"
    finally:
        print("  f1 finally")


def f2():
    try:
        return "try"
    finally:
        return "finally wins"


def f3():
    for i in range(5):
        try:
            if i == 1:
                continue
            if i == 3:
                break
            print("  body", i)
        finally:
            print("  finally", i)
    return i


def f4():
    try:
        raise ValueError("lost")
    finally:
        return "swallowed"


def f5(x):
    try:
        r = 10 / x
    except ZeroDivisionError:
        print("  except")
        return "div0"
    else:
        print("  else")
        return r
    finally:
        print("  finally")


def f6():
    log = []
    try:
        try:
            raise KeyError("inner")
        except KeyError:
            log.append("caught inner")
            raise ValueError("converted")
        finally:
            log.append("inner finally")
    except ValueError as e:
        log.append(f"outer {e}")
    else:
        log.append("no else")
    finally:
        log.append("outer finally")
    return log


def f7():
    n = 0
    while True:
        try:
            n += 1
            if n < 3:
                continue
            return n
        finally:
            print("  loop finally", n)


for fn in [f1, f2, f3, f4, lambda: f5(2), lambda: f5(0), f6, f7]:
    print(fn())


def nested_except():
    try:
        int("x")
    except (TypeError, ValueError) as e:
        try:
            {}["k"]
        except KeyError as k:
            return f"{type(e).__name__} then {type(k).__name__}: {k.__context__ is e}"


print(nested_except())
x = 0
try:
    x = 1
except Exception:
    x = 2
else:
    x += 10
finally:
    x *= 2
print(x)
try:
    pass
finally:
    print("bare finally")
