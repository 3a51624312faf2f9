# A corpus-style file: doctests in the module, a function and a class,
# a decorated function, two statements on one line, a main guard.
"""Sample module.

>>> double(2)
4
"""
import functools


def double(x: int) -> int:
    """
    >>> double(21)
    42
    >>> double('a')  # strings repeat
    'aa'
    >>> [double(i) for i in range(3)]
    [0, 2, 4]
    >>> double(None)
    Traceback (most recent call last):
        ...
    TypeError: unsupported operand type(s) for *: 'NoneType' and 'int'
    >>> print(double(1))
    2
    >>> y = double(5)
    >>> y
    10
    >>> def broken(:
    """
    return x * 2


@functools.lru_cache
def fib(n: int) -> int:
    """
    >>> fib(10)
    55
    """
    return n if n < 2 else fib(n - 1) + fib(n - 2)


class Stack:
    """
    >>> s = Stack()
    >>> s.push(1); s.push(2)
    >>> s.pop()
    2
    """

    def __init__(self):
        self.items = []

    def push(self, x):
        self.items.append(x)

    def pop(self):
        return self.items.pop()


A = 1; B = 2

if __name__ == "__main__":
    print(input("never read: "))
