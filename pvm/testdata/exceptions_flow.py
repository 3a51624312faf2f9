def risky(kind):
    if kind == 1:
        raise ValueError("v")
    if kind == 2:
        raise TypeError("t")
    if kind == 3:
        return {}["missing"]
    return "ok"
for k in range(5):
    try:
        r = risky(k)
    except (ValueError, TypeError) as e:
        print(k, "value/type", type(e).__name__, e)
    except LookupError as e:
        print(k, "lookup", repr(e))
    else:
        print(k, "else", r)
    finally:
        print(k, "finally")
def nested():
    try:
        try:
            raise ValueError("inner")
        finally:
            print("inner finally")
    except ValueError as e:
        print("outer caught", e)
        return "done"
    finally:
        print("outer finally")
print(nested())
def ret_in_finally():
    try:
        return 1
    finally:
        print("finally runs before return")
print(ret_in_finally())
def exc_var_cleared():
    try:
        raise KeyError("x")
    except KeyError as err:
        pass
    try:
        err
    except NameError:
        return "err cleared"
print(exc_var_cleared())
try:
    raise Exception("base", 1, 2)
except Exception as e:
    print(e.args, str(e))
class E1(Exception): pass
class E2(E1): pass
try:
    raise E2("sub")
except E1 as e:
    print("caught subclass via base:", type(e).__name__, isinstance(e, Exception))
