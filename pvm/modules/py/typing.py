# typing for the PVM: enough for annotations and the common imports to
# work (Any, Optional, Union, List, Dict, Tuple, Callable, TypeVar, Generic,
# NamedTuple, TypedDict, ...). Nothing is checked at run time.

import collections as _collections

TYPE_CHECKING = False


def _type_repr(obj):
    if isinstance(obj, type):
        if obj.__module__ == 'builtins':
            return obj.__qualname__
        return '%s.%s' % (obj.__module__, obj.__qualname__)
    if isinstance(obj, type(...)):
        return '...'
    if isinstance(obj, list):
        return '[%s]' % ', '.join(_type_repr(a) for a in obj)
    return repr(obj)


def _type_convert(arg):
    if arg is None:
        return type(None)
    if isinstance(arg, list):
        return [_type_convert(a) for a in arg]
    return arg


class _Final:
    pass


class _SpecialForm(_Final):
    # Any, Union, Optional, ClassVar, Final, Literal, ...

    def __init__(self, name, getitem=None):
        self._name = name
        self._getitem = getitem

    def __repr__(self):
        return 'typing.' + self._name

    def __getitem__(self, params):
        if self._getitem is None:
            raise TypeError('%s is not subscriptable' % self)
        return self._getitem(self, params)

    def __call__(self, *args, **kwds):
        raise TypeError('Cannot instantiate %r' % self)

    def __instancecheck__(self, obj):
        raise TypeError('%s cannot be used with isinstance()' % self)

    def __or__(self, other):
        return Union[self, other]

    def __ror__(self, other):
        return Union[other, self]


class _GenericAlias(_Final):
    # A subscripted form such as List[int] or Optional[str].

    def __init__(self, origin, args, name=None, inst=True):
        self.__origin__ = origin
        if not isinstance(args, tuple):
            args = (args,)
        args = tuple(_type_convert(a) for a in args)
        self.__args__ = args
        self._name = name
        self._inst = inst
        self.__parameters__ = tuple(a for a in args if isinstance(a, TypeVar))

    def __repr__(self):
        if self._name == 'Optional':
            return 'typing.Optional[%s]' % _type_repr(self.__args__[0])
        if self._name is not None:
            name = 'typing.' + self._name
        else:
            name = _type_repr(self.__origin__)
        if self._name == 'Callable' and len(self.__args__) == 2 and isinstance(self.__args__[0], list):
            return '%s[%s, %s]' % (name, _type_repr(self.__args__[0]), _type_repr(self.__args__[1]))
        if not self.__args__:
            return '%s[()]' % name
        return '%s[%s]' % (name, ', '.join(_type_repr(a) for a in self.__args__))

    def __eq__(self, other):
        if not isinstance(other, _GenericAlias):
            return NotImplemented
        if self._name in ('Union', 'Optional') and other._name in ('Union', 'Optional'):
            return set(self.__args__) == set(other.__args__)
        return self.__origin__ == other.__origin__ and self.__args__ == other.__args__

    def __hash__(self):
        if self._name in ('Union', 'Optional'):
            return hash(frozenset(self.__args__))
        return hash((self._name, self.__args__))

    def __call__(self, *args, **kwargs):
        if not self._inst:
            raise TypeError('Type %s cannot be instantiated; use %s() instead' % (
                self._name, self.__origin__.__name__))
        return self.__origin__(*args, **kwargs)

    def __getitem__(self, params):
        return _GenericAlias(self.__origin__, params if isinstance(params, tuple) else (params,), self._name, self._inst)

    def __mro_entries__(self, bases):
        if self._name is not None and not isinstance(self.__origin__, type):
            raise TypeError('Cannot subclass %r' % self)
        if self.__origin__ is Generic:
            return (Generic,)
        return (self.__origin__,)

    def __instancecheck__(self, obj):
        if self.__args__ and self._name is not None and self._name != 'Union' and self._name != 'Optional':
            raise TypeError('Subscripted generics cannot be used with class and instance checks')
        return isinstance(obj, self.__origin__)

    def __or__(self, other):
        return Union[self, other]

    def __ror__(self, other):
        return Union[other, self]


class _SpecialGenericAlias(_GenericAlias):
    # List, Dict, Set, ...: aliases of builtin classes, subscriptable.

    def __init__(self, origin, name, nparams, inst=True):
        _GenericAlias.__init__(self, origin, (), name, inst)
        self._nparams = nparams

    def __repr__(self):
        return 'typing.' + self._name

    def __getitem__(self, params):
        if not isinstance(params, tuple):
            params = (params,)
        if self._name == 'Callable' and len(params) == 2:
            args, result = params
            if isinstance(args, list):
                return _GenericAlias(self.__origin__, (args, result), self._name, self._inst)
        return _GenericAlias(self.__origin__, params, self._name, self._inst)

    def __instancecheck__(self, obj):
        return isinstance(obj, self.__origin__)

    def __subclasscheck__(self, cls):
        return issubclass(cls, self.__origin__)

    def __mro_entries__(self, bases):
        return (self.__origin__,)


def _union_getitem(self, params):
    if not isinstance(params, tuple):
        params = (params,)
    flat = []
    for p in params:
        if p is None:
            p = type(None)
        if isinstance(p, _GenericAlias) and p._name in ('Union', 'Optional'):
            members = p.__args__
        else:
            members = (p,)
        for m in members:
            if m not in flat:
                flat.append(m)
    if len(flat) == 1:
        return flat[0]
    if len(flat) == 2 and type(None) in flat:
        other = flat[0] if flat[1] == type(None) else flat[1]
        alias = _GenericAlias(Union, (other, type(None)), 'Optional')
        return alias
    return _GenericAlias(Union, tuple(flat), 'Union')


def _optional_getitem(self, param):
    return Union[param, None]


def _wrap_getitem(self, param):
    return _GenericAlias(self, param, self._name)


def _literal_getitem(self, params):
    return _GenericAlias(self, params, self._name)


Any = _SpecialForm('Any')
NoReturn = _SpecialForm('NoReturn')
Never = _SpecialForm('Never')
Self = _SpecialForm('Self')
LiteralString = _SpecialForm('LiteralString')
Union = _SpecialForm('Union', _union_getitem)
Optional = _SpecialForm('Optional', _optional_getitem)
ClassVar = _SpecialForm('ClassVar', _wrap_getitem)
Final = _SpecialForm('Final', _wrap_getitem)
Literal = _SpecialForm('Literal', _literal_getitem)
Annotated = _SpecialForm('Annotated', _wrap_getitem)
TypeAlias = _SpecialForm('TypeAlias')
Required = _SpecialForm('Required', _wrap_getitem)
NotRequired = _SpecialForm('NotRequired', _wrap_getitem)
ClassVar._is_classvar = True


class _ClassVarAlias(_GenericAlias):
    _is_classvar = True


def _classvar_getitem(self, param):
    return _ClassVarAlias(self, param, 'ClassVar')


ClassVar._getitem = _classvar_getitem

List = _SpecialGenericAlias(list, 'List', 1, inst=False)
Dict = _SpecialGenericAlias(dict, 'Dict', 2, inst=False)
Set = _SpecialGenericAlias(set, 'Set', 1, inst=False)
FrozenSet = _SpecialGenericAlias(frozenset, 'FrozenSet', 1, inst=False)
Tuple = _SpecialGenericAlias(tuple, 'Tuple', -1, inst=False)
Type = _SpecialGenericAlias(type, 'Type', 1, inst=False)
Callable = _SpecialGenericAlias(object, 'Callable', 2, inst=False)
DefaultDict = _SpecialGenericAlias(_collections.defaultdict, 'DefaultDict', 2)
OrderedDict = _SpecialGenericAlias(_collections.OrderedDict, 'OrderedDict', 2)
Counter = _SpecialGenericAlias(_collections.Counter, 'Counter', 1)
Deque = _SpecialGenericAlias(_collections.deque, 'Deque', 1)
Iterable = _SpecialGenericAlias(object, 'Iterable', 1, inst=False)
Iterator = _SpecialGenericAlias(object, 'Iterator', 1, inst=False)
Generator = _SpecialGenericAlias(object, 'Generator', 3, inst=False)
Sequence = _SpecialGenericAlias(object, 'Sequence', 1, inst=False)
MutableSequence = _SpecialGenericAlias(list, 'MutableSequence', 1, inst=False)
Mapping = _SpecialGenericAlias(object, 'Mapping', 2, inst=False)
MutableMapping = _SpecialGenericAlias(dict, 'MutableMapping', 2, inst=False)
AbstractSet = _SpecialGenericAlias(object, 'AbstractSet', 1, inst=False)
MutableSet = _SpecialGenericAlias(set, 'MutableSet', 1, inst=False)
Collection = _SpecialGenericAlias(object, 'Collection', 1, inst=False)
Container = _SpecialGenericAlias(object, 'Container', 1, inst=False)
Hashable = _SpecialGenericAlias(object, 'Hashable', 0, inst=False)
Sized = _SpecialGenericAlias(object, 'Sized', 0, inst=False)
Reversible = _SpecialGenericAlias(object, 'Reversible', 1, inst=False)
Text = str
AnyStr = None  # replaced below once TypeVar exists


class TypeVar(_Final):
    # A type variable: T = TypeVar('T').

    def __init__(self, name, *constraints, bound=None, covariant=False, contravariant=False):
        self.__name__ = name
        self.__constraints__ = constraints
        self.__bound__ = bound
        self.__covariant__ = covariant
        self.__contravariant__ = contravariant

    def __repr__(self):
        if self.__covariant__:
            prefix = '+'
        elif self.__contravariant__:
            prefix = '-'
        else:
            prefix = '~'
        return prefix + self.__name__

    def __or__(self, other):
        return Union[self, other]


class ParamSpec(TypeVar):
    pass


AnyStr = TypeVar('AnyStr', bytes, str)


class Generic:
    # Base of user generic classes: class Stack(Generic[T]).

    def __class_getitem__(cls, params):
        if not isinstance(params, tuple):
            params = (params,)
        return _GenericAlias(cls, params)


class Protocol(Generic):
    pass  # Structural base class; members are not checked at run time.


def runtime_checkable(cls):
    return cls


def cast(typ, val):
    return val


def overload(func):
    return func


def final(f):
    return f


def no_type_check(arg):
    return arg


def assert_never(arg):
    raise AssertionError('Expected code to be unreachable')


def reveal_type(obj):
    return obj


def get_origin(tp):
    if isinstance(tp, _SpecialGenericAlias):
        return tp.__origin__
    if isinstance(tp, _GenericAlias):
        if tp._name in ('Optional', 'Union'):
            return Union
        return tp.__origin__
    return getattr(tp, '__origin__', None)


def get_args(tp):
    if isinstance(tp, _SpecialGenericAlias):
        return ()
    if isinstance(tp, _GenericAlias):
        return tp.__args__
    return getattr(tp, '__args__', ())


def get_type_hints(obj, globalns=None, localns=None, include_extras=False):
    hints = {}
    if isinstance(obj, type):
        for base in reversed(obj.__mro__):
            hints.update(base.__dict__.get('__annotations__', {}))
        return hints
    return dict(getattr(obj, '__annotations__', {}))


class NewType:
    # NewType('UserId', int): an identity function with a name.

    def __init__(self, name, tp):
        self.__name__ = name
        self.__qualname__ = name
        self.__supertype__ = tp

    def __call__(self, x):
        return x

    def __repr__(self):
        return '__main__.' + self.__name__


class NamedTupleMeta(type):
    def __new__(cls, typename, bases, ns):
        types = ns.get('__annotations__', {})
        field_names = list(types)
        defaults = []
        for name in field_names:
            if name in ns:
                defaults.append(ns[name])
            elif defaults:
                raise TypeError('Non-default namedtuple field %s cannot follow default field%s %s' % (
                    name, 's' if len(defaults) > 1 else '', ', '.join(field_names[:len(defaults)])))
        nm_tpl = _collections.namedtuple(typename, field_names, defaults=defaults,
                                         module=ns.get('__module__', '__main__'))
        nm_tpl.__annotations__ = dict(types)
        for key, value in ns.items():
            if key in ('__module__', '__qualname__', '__annotations__') or key in field_names:
                continue
            if key in ('__new__', '__init__', '__slots__', '__getnewargs__', '_fields',
                       '_field_defaults', '_make', '_replace', '_asdict', '_source'):
                raise AttributeError('Cannot overwrite NamedTuple attribute ' + key)
            setattr(nm_tpl, key, value)
        return nm_tpl


_NamedTuple = type.__new__(NamedTupleMeta, 'NamedTuple', (), {'__module__': 'typing'})


def NamedTuple(typename, fields=None, /, **kwargs):
    """Typed namedtuple: class P(NamedTuple) or NamedTuple('P', [('x', int)])."""
    if fields is None:
        fields = kwargs.items()
    fields = list(fields)
    nt = _collections.namedtuple(typename, [n for n, t in fields], module='__main__')
    nt.__annotations__ = dict(fields)
    return nt


NamedTuple.__mro_entries__ = lambda bases: (_NamedTuple,)


class _TypedDictMeta(type):
    def __new__(cls, name, bases, ns, total=True):
        annotations = {}
        for base in bases:
            annotations.update(base.__dict__.get('__annotations__', {}))
        annotations.update(ns.get('__annotations__', {}))
        ns['__annotations__'] = annotations
        tp = type.__new__(_TypedDictMeta, name, (dict,), ns)
        tp.__total__ = total
        return tp

    def __call__(cls, *args, **kwargs):
        return dict(*args, **kwargs)

    def __instancecheck__(cls, obj):
        raise TypeError('TypedDict does not support instance and class checks')


def TypedDict(typename, fields=None, /, *, total=True, **kwargs):
    """A dict with a fixed set of typed keys (checked by nothing at run
    time): class Movie(TypedDict) or TypedDict('Movie', {'name': str})."""
    if fields is None:
        fields = kwargs
    ns = {'__annotations__': dict(fields), '__module__': '__main__'}
    return _TypedDictMeta(typename, (), ns, total=total)


_TypedDict = type.__new__(_TypedDictMeta, 'TypedDict', (), {'__module__': 'typing'})
TypedDict.__mro_entries__ = lambda bases: (_TypedDict,)
