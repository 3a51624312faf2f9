"""Shallow and deep copy operations (CPython 3.11's copy).

Written for the PVM. copy(x) and deepcopy(x[, memo]) give what CPython's
give: atomic values (numbers, strings, bytes, None, types, functions,
ranges) come back as they are, lists, dicts, sets and bytearrays through
their own copy, and a class's __copy__, __deepcopy__, __reduce_ex__ or
__reduce__ wins when it defines one. Other instances are rebuilt as
CPython's object.__reduce_ex__(4) describes them: cls.__new__(cls, *args)
(args from __getnewargs__, or the value itself for a subclass of an
immutable built-in type), then the state (__getstate__, else __dict__ and
__slots__), then the items of a list or dict subclass; deepcopy copies
each part through the memo so shared and cyclic structures stay shared
and cyclic.

The PVM has no complex numbers, no __reduce_ex__ on object and no
copyreg, so the default reduction is spelled out here rather than looked
up. It refuses `is` on int, float, str and bytes values, so identity is
only asked of other objects; and only class instances have an id(), so the
memo keys instances by id() as CPython does (a __deepcopy__ may read and
write memo[id(self)]) and keeps the copies of lists, dicts, tuples and
the other built-in containers in a side table under a private key,
searched by identity. There is no keep-alive entry: the PVM never reuses
an id.
"""

__all__ = ["Error", "copy", "deepcopy"]


class Error(Exception):
    pass


error = Error

_atomic = (type(None), int, float, bool, str, bytes, type, range,
           type(len), type(lambda: 0), type(Ellipsis), type(NotImplemented),
           property)
_immutable_shallow = _atomic + (tuple, frozenset, slice)
_immutable_bases = (int, float, str, bytes, tuple, frozenset)


def _own(cls, name):
    """The attribute name as a class below object defines it, else None:
    the PVM's object has no __reduce_ex__, __reduce__ or __getstate__, so
    only a user's (or a library class's) definition counts."""
    for k in cls.__mro__:
        if k is object:
            return None
        if name in k.__dict__:
            return getattr(cls, name)
    return None


def copy(x):
    """Shallow copy operation on arbitrary Python objects."""
    cls = type(x)
    if cls in _immutable_shallow:
        return x
    if cls is list or cls is dict or cls is set or cls is bytearray:
        return x.copy()
    if issubclass(cls, type):
        return x
    copier = getattr(cls, "__copy__", None)
    if copier is not None:
        return copier(x)
    return _reconstruct(x, None, *_reduce(x, cls))


def deepcopy(x, memo=None):
    """Deep copy operation on arbitrary Python objects."""
    cls = type(x)
    if cls in _atomic:
        return x  # its own copy: no memo entry
    if memo is None:
        memo = {}
    found, y = _memo_get(memo, x)
    if found:
        return y
    if cls is list:
        y = _deepcopy_list(x, memo)
    elif cls is tuple:
        y = _deepcopy_tuple(x, memo)
    elif cls is dict:
        y = _deepcopy_dict(x, memo)
    elif issubclass(cls, type):
        y = x
    else:
        copier = getattr(x, "__deepcopy__", None)
        if copier is not None:
            y = copier(memo)
        else:
            y = _reconstruct(x, memo, *_reduce(x, cls))
    # A value that is its own copy gets no memo entry. (x is not atomic
    # here; the PVM refuses `is` on int, float, str and bytes, so an atomic
    # y is known to be another object without asking.)
    if type(y) in _atomic or y is not x:
        _memo_put(memo, x, y)
    return y


class _Seen:
    """The memo's key for the copies of values that have no id()."""


_SEEN = _Seen()


def _memo_get(memo, x):
    """(True, copy) when x was copied already in this deepcopy."""
    try:
        key = id(x)
    except DeterminismError:
        seen = memo.get(_SEEN)
        if seen is not None:
            originals, copies = seen
            for i, o in enumerate(originals):
                if o is x:
                    return True, copies[i]
        return False, None
    if key in memo:
        return True, memo[key]
    return False, None


def _memo_put(memo, x, y):
    try:
        key = id(x)
    except DeterminismError:
        seen = memo.get(_SEEN)
        if seen is None:
            seen = memo[_SEEN] = ([], [])
        seen[0].append(x)
        seen[1].append(y)
        return
    memo[key] = y


def _deepcopy_list(x, memo):
    y = []
    _memo_put(memo, x, y)
    append = y.append
    for a in x:
        append(deepcopy(a, memo))
    return y


def _deepcopy_tuple(x, memo):
    y = [deepcopy(a, memo) for a in x]
    # The tuple may be in the memo already when it is part of a cycle.
    found, z = _memo_get(memo, x)
    if found:
        return z
    for k, j in zip(x, y):
        # An atomic item is its own deep copy (and `is` on one is refused).
        if type(k) not in _atomic and k is not j:
            return tuple(y)
    return x


def _deepcopy_dict(x, memo):
    y = {}
    _memo_put(memo, x, y)
    for key, value in x.items():
        y[deepcopy(key, memo)] = deepcopy(value, memo)
    return y


def _reduce(x, cls):
    """(callable, args, state, listitems, dictitems) as CPython's
    __reduce_ex__(4) would give them for x."""
    reductor = _own(cls, "__reduce_ex__")
    if reductor is not None:
        rv = reductor(x, 4)
    else:
        reductor = _own(cls, "__reduce__")
        if reductor is not None:
            rv = reductor(x)
        else:
            rv = _default_reduce(x, cls)
    if isinstance(rv, str):
        return (lambda: x, ())
    return rv


def _default_reduce(x, cls):
    if isinstance(x, BaseException):
        state = x.__dict__ or None
        return (cls, x.args, state)
    if isinstance(x, (set, frozenset)):
        state = getattr(x, "__dict__", None) or None
        return (cls, (list(x),), state)
    if isinstance(x, slice):
        return (cls, (x.start, x.stop, x.step))
    if isinstance(x, bytearray):
        state = getattr(x, "__dict__", None) or None
        return (cls, (bytes(x),), state)
    getnewargs = _own(cls, "__getnewargs__")
    if getnewargs is not None:
        args = getnewargs(x)
    else:
        args = ()
        for base in cls.__mro__:
            if base in _immutable_bases:
                args = (base(x),)
                break
    getstate = _own(cls, "__getstate__")
    if getstate is not None:
        state = getstate(x)
    else:
        state = _default_state(x, cls)
    listitems = iter(x) if isinstance(x, list) else None
    dictitems = iter(x.items()) if isinstance(x, dict) else None
    return (_newobj, (cls,) + tuple(args), state, listitems, dictitems)


def _newobj(cls, *args):
    return cls.__new__(cls, *args)


def _default_state(x, cls):
    """object.__getstate__(): the instance dict, or (dict, slots) when
    the class has __slots__ with values set; None when both are empty."""
    state = getattr(x, "__dict__", None) or None
    slots = {}
    for k in cls.__mro__:
        names = k.__dict__.get("__slots__", ())
        if isinstance(names, str):
            names = (names,)
        for name in names:
            if name in ("__dict__", "__weakref__"):
                continue
            if name.startswith("__") and not name.endswith("__"):
                name = "_%s%s" % (k.__name__.lstrip("_"), name)
            if name not in slots and hasattr(x, name):
                slots[name] = getattr(x, name)
    if slots:
        return (state, slots)
    return state


def _reconstruct(x, memo, func, args, state=None, listiter=None, dictiter=None):
    deep = memo is not None
    if deep and args:
        args = deepcopy(args, memo)
    y = func(*args)
    if deep:
        _memo_put(memo, x, y)
    if state is not None:
        if deep:
            state = deepcopy(state, memo)
        if hasattr(y, "__setstate__"):
            y.__setstate__(state)
        else:
            if isinstance(state, tuple) and len(state) == 2:
                state, slotstate = state
            else:
                slotstate = None
            if state is not None:
                # object.__setattr__: CPython updates __dict__ directly,
                # past a class's own __setattr__ (a frozen dataclass).
                for key, value in state.items():
                    object.__setattr__(y, key, value)
            if slotstate is not None:
                for key, value in slotstate.items():
                    setattr(y, key, value)
    if listiter is not None:
        if deep:
            for item in listiter:
                y.append(deepcopy(item, memo))
        else:
            for item in listiter:
                y.append(item)
    if dictiter is not None:
        if deep:
            for key, value in dictiter:
                y[deepcopy(key, memo)] = deepcopy(value, memo)
        else:
            for key, value in dictiter:
                y[key] = value
    return y
