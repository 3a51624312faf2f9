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
print('#1')
try:
    __r = (double(2)
    )
    if __r is not None:
        print(repr(__r))
except Exception as __e:
    print('!', 'CAP' if type(__e) is OverflowError and '-bit limit' in str(__e) else type(__e).__name__)
print('#2')
try:
    __r = (double(21)
    )
    if __r is not None:
        print(repr(__r))
except Exception as __e:
    print('!', 'CAP' if type(__e) is OverflowError and '-bit limit' in str(__e) else type(__e).__name__)
print('#3')
try:
    __r = (double('a')
    )
    if __r is not None:
        print(repr(__r))
except Exception as __e:
    print('!', 'CAP' if type(__e) is OverflowError and '-bit limit' in str(__e) else type(__e).__name__)
print('#4')
try:
    __r = ([double(i) for i in range(3)]
    )
    if __r is not None:
        print(repr(__r))
except Exception as __e:
    print('!', 'CAP' if type(__e) is OverflowError and '-bit limit' in str(__e) else type(__e).__name__)
print('#5')
try:
    __r = (double(None)
    )
    if __r is not None:
        print(repr(__r))
except Exception as __e:
    print('!', 'CAP' if type(__e) is OverflowError and '-bit limit' in str(__e) else type(__e).__name__)
print('#6')
try:
    __r = (print(double(1))
    )
    if __r is not None:
        print(repr(__r))
except Exception as __e:
    print('!', 'CAP' if type(__e) is OverflowError and '-bit limit' in str(__e) else type(__e).__name__)
print('#7')
try:
    y = double(5)
except Exception as __e:
    print('!', 'CAP' if type(__e) is OverflowError and '-bit limit' in str(__e) else type(__e).__name__)
print('#8')
try:
    __r = (y
    )
    if __r is not None:
        print(repr(__r))
except Exception as __e:
    print('!', 'CAP' if type(__e) is OverflowError and '-bit limit' in str(__e) else type(__e).__name__)
print('#9')
try:
    __r = (fib(10)
    )
    if __r is not None:
        print(repr(__r))
except Exception as __e:
    print('!', 'CAP' if type(__e) is OverflowError and '-bit limit' in str(__e) else type(__e).__name__)
print('#10')
try:
    s = Stack()
except Exception as __e:
    print('!', 'CAP' if type(__e) is OverflowError and '-bit limit' in str(__e) else type(__e).__name__)
print('#11')
try:
    s.push(1); s.push(2)
except Exception as __e:
    print('!', 'CAP' if type(__e) is OverflowError and '-bit limit' in str(__e) else type(__e).__name__)
print('#12')
try:
    __r = (s.pop()
    )
    if __r is not None:
        print(repr(__r))
except Exception as __e:
    print('!', 'CAP' if type(__e) is OverflowError and '-bit limit' in str(__e) else type(__e).__name__)
