for cls in [ZeroDivisionError, KeyError, IndexError, UnboundLocalError, RecursionError, NotImplementedError, ModuleNotFoundError, FileNotFoundError, StopIteration, AssertionError]:
    print(cls.__name__, [k.__name__ for k in cls.__mro__])
print(issubclass(UnicodeDecodeError, ValueError), issubclass(OverflowError, ArithmeticError), issubclass(MemoryError, Exception))
try:
    raise NotImplementedError("todo")
except RuntimeError as e:
    print("RuntimeError catches", type(e).__name__, e)
