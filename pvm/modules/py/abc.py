# abc for the PVM: ABC, ABCMeta, abstractmethod (and the abstract
# property/classmethod/staticmethod spellings). Instantiating a class that
# still has abstract methods raises TypeError, as in CPython.

__all__ = ['ABC', 'ABCMeta', 'abstractmethod', 'abstractclassmethod',
           'abstractstaticmethod', 'abstractproperty', 'get_cache_token']


def abstractmethod(funcobj):
    """Mark a method abstract: subclasses must override it."""
    funcobj.__isabstractmethod__ = True
    return funcobj


def abstractclassmethod(callable):
    """An abstract classmethod (deprecated spelling)."""
    callable.__isabstractmethod__ = True
    return classmethod(callable)


def abstractstaticmethod(callable):
    """An abstract staticmethod (deprecated spelling)."""
    callable.__isabstractmethod__ = True
    return staticmethod(callable)


def abstractproperty(fget):
    """An abstract property (deprecated spelling)."""
    fget.__isabstractmethod__ = True
    return property(fget)


def _is_abstract(value):
    try:
        return bool(getattr(value, '__isabstractmethod__', False))
    except AttributeError:
        return False


class ABCMeta(type):
    # Metaclass that records a class's abstract methods in
    # __abstractmethods__ and supports virtual subclasses (register).

    def __new__(mcls, name, bases, namespace, **kwargs):
        cls = super().__new__(mcls, name, bases, namespace, **kwargs)
        abstracts = set()
        for attr, value in namespace.items():
            if _is_abstract(value):
                abstracts.add(attr)
        for base in bases:
            for attr in getattr(base, '__abstractmethods__', ()):
                value = getattr(cls, attr, None)
                if _is_abstract(value):
                    abstracts.add(attr)
        type.__setattr__(cls, '__abstractmethods__', frozenset(abstracts))
        type.__setattr__(cls, '_abc_registry', [])
        return cls

    def register(cls, subclass):
        """Make subclass a virtual subclass of cls."""
        if not isinstance(subclass, type):
            raise TypeError('Can only register classes')
        if issubclass(subclass, cls):
            return subclass
        cls._abc_registry.append(subclass)
        return subclass

    def __instancecheck__(cls, instance):
        return cls.__subclasscheck__(type(instance))

    def __subclasscheck__(cls, subclass):
        if not isinstance(subclass, type):
            raise TypeError('issubclass() arg 1 must be a class')
        if cls in subclass.__mro__:
            return True
        for k in subclass.__mro__:
            for reg in getattr(cls, '_abc_registry', ()):
                if reg in k.__mro__:
                    return True
        return False


class ABC(metaclass=ABCMeta):
    # Helper base class: class Shape(ABC) is class Shape(metaclass=ABCMeta).
    __slots__ = ()


def get_cache_token():
    return 0
