def f(n):
    try:
        if n == 0:
            raise ValueError("zero")
        return 10 // n
    except ValueError:
        return "value error"
    except ZeroDivisionError:
        return "unreachable"
    finally:
        if n == 5:
            print("finally for five")
print(f(0), f(5), f(2))
def g():
    try:
        raise KeyError("a")
    except KeyError:
        try:
            raise IndexError("b")
        except IndexError as inner:
            return repr(inner.__context__)
print(g())
def h():
    results = []
    for i in range(4):
        try:
            if i % 2:
                raise RuntimeError(i)
            results.append(i)
        except RuntimeError as e:
            results.append(f"err{e}")
            continue
        finally:
            results.append("f")
    return results
print(h())
try:
    raise ValueError
except ValueError as e:
    print(repr(e), e.args, str(e) == "")
try:
    raise TypeError("x") from None
except TypeError as e:
    print(e.__cause__, e.__suppress_context__)
e = RuntimeError("kept")
try:
    raise e
except RuntimeError as caught:
    print(caught is e)
def reraiser():
    try:
        1 / 0
    except ZeroDivisionError:
        raise
try:
    reraiser()
except ArithmeticError as e:
    print("outer got", type(e).__name__)
print(isinstance(StopIteration(), Exception), issubclass(KeyboardInterrupt, Exception), issubclass(GeneratorExit, BaseException))
