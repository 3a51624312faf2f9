# str() and repr() of exceptions with various args, and common builtin raises.
cases = [ValueError(), ValueError("one"), ValueError("a", 2), KeyError("k"), KeyError(("t", 1)), KeyError(),
         IndexError("list index out of range"), TypeError(None), RuntimeError(""), StopIteration(5),
         ZeroDivisionError("division by zero"), AttributeError("x"), OverflowError("big"), NotImplementedError("todo"),
         AssertionError("bad"), LookupError("look"), ArithmeticError(), Exception(1, [2])]
for e in cases:
    print(type(e).__name__, repr(str(e)), repr(e), e.args)
print(issubclass(KeyError, LookupError), issubclass(ZeroDivisionError, ArithmeticError), issubclass(StopIteration, Exception))
print(issubclass(GeneratorExit, Exception), issubclass(KeyboardInterrupt, BaseException), issubclass(RecursionError, RuntimeError))
print(issubclass(NotImplementedError, RuntimeError), issubclass(UnboundLocalError, NameError), issubclass(ModuleNotFoundError, ImportError))
print([k.__name__ for k in OverflowError.__mro__], [k.__name__ for k in KeyError.__mro__])


def raises(fn):
    try:
        fn()
    except BaseException as e:
        return f"{type(e).__name__}: {e}"


print(raises(lambda: [].pop()))
print(raises(lambda: {}.popitem()))
print(raises(lambda: int("")))
print(raises(lambda: "abc".index("d")))
print(raises(lambda: (1, 2).index(5)))
print(raises(lambda: [1].index(5)))
print(raises(lambda: next(iter(()))))
print(raises(lambda: float("x")))
print(raises(lambda: chr(1114112)))
print(raises(lambda: bytes([300])))
print(raises(lambda: list.index))
print(raises(lambda: range(0, 10, 0)))
print(raises(lambda: "x".join(5)))
print(raises(lambda: sum(1, 2)))
print(raises(lambda: divmod(1.5, 0)))
