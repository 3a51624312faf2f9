"""Bisection algorithms on sorted lists (CPython 3.11's bisect).

Written for the PVM. The functions compare as CPython's C module does
(`x < a[mid]` in the right-hand variants, `a[mid] < x` in the left-hand
ones, through key when it is given, which is applied to the list's items
and not to x) and insert with the sequence's own insert method.
"""

__all__ = ['bisect', 'bisect_left', 'bisect_right', 'insort', 'insort_left',
           'insort_right']


def _bounds(a, lo, hi):
    if lo < 0:
        raise ValueError('lo must be non-negative')
    if hi is None or hi == -1:  # the C module's "no hi" is -1
        hi = len(a)
    return lo, hi


def bisect_right(a, x, lo=0, hi=None, *, key=None):
    """The index where x would be inserted in a, after any equal items:
    all of a[lo:i] are <= x and all of a[i:hi] are > x."""
    lo, hi = _bounds(a, lo, hi)
    if key is None:
        while lo < hi:
            mid = (lo + hi) // 2
            if x < a[mid]:
                hi = mid
            else:
                lo = mid + 1
    else:
        while lo < hi:
            mid = (lo + hi) // 2
            if x < key(a[mid]):
                hi = mid
            else:
                lo = mid + 1
    return lo


def bisect_left(a, x, lo=0, hi=None, *, key=None):
    """The index where x would be inserted in a, before any equal items:
    all of a[lo:i] are < x and all of a[i:hi] are >= x."""
    lo, hi = _bounds(a, lo, hi)
    if key is None:
        while lo < hi:
            mid = (lo + hi) // 2
            if a[mid] < x:
                lo = mid + 1
            else:
                hi = mid
    else:
        while lo < hi:
            mid = (lo + hi) // 2
            if key(a[mid]) < x:
                lo = mid + 1
            else:
                hi = mid
    return lo


def insort_right(a, x, lo=0, hi=None, *, key=None):
    """Insert x in a, kept sorted, after any items equal to it."""
    if key is None:
        lo = bisect_right(a, x, lo, hi)
    else:
        lo = bisect_right(a, key(x), lo, hi, key=key)
    a.insert(lo, x)


def insort_left(a, x, lo=0, hi=None, *, key=None):
    """Insert x in a, kept sorted, before any items equal to it."""
    if key is None:
        lo = bisect_left(a, x, lo, hi)
    else:
        lo = bisect_left(a, key(x), lo, hi, key=key)
    a.insert(lo, x)


bisect = bisect_right
insort = insort_right
