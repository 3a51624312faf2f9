def f(x):
    if x < 0:
        raise ValueError("negative: " + str(x))
    return x
try:
    f(-1)
except ValueError as e:
    print("caught", e, e.args, type(e).__name__)
try:
    1 / 0
except ZeroDivisionError as e:
    print("zde", e)
else:
    print("no")
finally:
    print("finally 1")
try:
    pass
except Exception:
    print("never")
else:
    print("else ran")
finally:
    print("finally 2")
def g():
    try:
        return "try"
    finally:
        print("cleanup in g")
print(g())
def h():
    for i in range(3):
        try:
            if i == 1:
                continue
            if i == 2:
                break
            print("h body", i)
        finally:
            print("h finally", i)
    return "h done"
print(h())
class MyError(Exception):
    def __init__(self, code, msg):
        super().__init__(msg)
        self.code = code
try:
    raise MyError(42, "custom")
except MyError as e:
    print(e.code, e, e.args)
try:
    try:
        raise KeyError("k")
    except KeyError as e:
        raise RuntimeError("wrapped") from e
except RuntimeError as e:
    print(e, repr(e.__cause__), e.__suppress_context__)
try:
    try:
        {}["x"]
    except KeyError:
        raise TypeError("during")
except TypeError as e:
    print(e, repr(e.__context__))
try:
    raise IndexError
except (KeyError, IndexError) as e:
    print("tuple match", type(e).__name__, repr(e))
try:
    try:
        raise ValueError("inner")
    except ValueError:
        print("handling")
        raise
except ValueError as e:
    print("reraised", e)
print(issubclass(ZeroDivisionError, ArithmeticError), issubclass(KeyError, LookupError))
e = ValueError("a", "b")
print(e, repr(e), str(ValueError()), repr(KeyError("k")), str(KeyError("k")))
try:
    assert 1 == 2, "math broke"
except AssertionError as e:
    print("assert", e)
try:
    undefined_name
except NameError as e:
    print(e)
try:
    int("abc")
except ValueError as e:
    print(e)
try:
    [].pop()
except IndexError as e:
    print(e)
try:
    None.foo
except AttributeError as e:
    print(e)
try:
    "a" + 1
except TypeError as e:
    print(e)
