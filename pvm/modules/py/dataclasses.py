# dataclasses for the PVM: @dataclass with defaults, field(), ordering,
# frozen instances, asdict/astuple/fields/replace.
#
# The PVM has no exec, so the generated methods are generic closures over
# the class's field list instead of compiled source.

__all__ = ['dataclass', 'field', 'Field', 'FrozenInstanceError', 'InitVar', 'KW_ONLY',
           'MISSING', 'fields', 'asdict', 'astuple', 'make_dataclass', 'replace',
           'is_dataclass']


class FrozenInstanceError(AttributeError):
    pass


class _MISSING_TYPE:
    def __repr__(self):
        return 'MISSING'


MISSING = _MISSING_TYPE()


def _missing(v):
    return isinstance(v, _MISSING_TYPE)


class _KW_ONLY_TYPE:
    def __repr__(self):
        return 'KW_ONLY'


KW_ONLY = _KW_ONLY_TYPE()


class InitVar:
    def __init__(self, type):
        self.type = type

    def __class_getitem__(cls, type):
        return InitVar(type)

    def __repr__(self):
        return 'dataclasses.InitVar[%s]' % _type_name(self.type)


def _type_name(t):
    if isinstance(t, type):
        if t.__module__ == 'builtins':
            return t.__qualname__
        return '%s.%s' % (t.__module__, t.__qualname__)
    return repr(t)


_FIELD = 'field'
_FIELD_CLASSVAR = 'classvar'
_FIELD_INITVAR = 'initvar'


class Field:
    def __init__(self, default, default_factory, init, repr, hash, compare, metadata, kw_only):
        self.name = None
        self.type = None
        self.default = default
        self.default_factory = default_factory
        self.init = init
        self.repr = repr
        self.hash = hash
        self.compare = compare
        self.metadata = {} if metadata is None else metadata
        self.kw_only = kw_only
        self._field_type = None

    def __repr__(self):
        return ('Field(name=%r,type=%r,default=%r,default_factory=%r,init=%r,repr=%r,hash=%r,'
                'compare=%r,metadata=%r,kw_only=%r,_field_type=%s)' % (
                    self.name, self.type, self.default, self.default_factory, self.init,
                    self.repr, self.hash, self.compare, self.metadata, self.kw_only,
                    self._field_type))

    def __set_name__(self, owner, name):
        pass


def field(*, default=MISSING, default_factory=MISSING, init=True, repr=True,
          hash=None, compare=True, metadata=None, kw_only=MISSING):
    """Describe one field of a dataclass."""
    if not _missing(default) and not _missing(default_factory):
        raise ValueError('cannot specify both default and default_factory')
    return Field(default, default_factory, init, repr, hash, compare, metadata, kw_only)


def _is_classvar(tp):
    if isinstance(tp, str):
        return tp.startswith('ClassVar') or tp.startswith('typing.ClassVar')
    return getattr(tp, '_is_classvar', False) is True


def _get_field(cls, name, tp, default_kw_only):
    default = cls.__dict__.get(name, MISSING)
    if isinstance(default, Field):
        f = default
    else:
        f = field(default=default)
    f.name = name
    f.type = tp
    f._field_type = _FIELD
    if _is_classvar(tp):
        f._field_type = _FIELD_CLASSVAR
    elif isinstance(tp, InitVar) or (isinstance(tp, type) and tp is InitVar):
        f._field_type = _FIELD_INITVAR
    if f._field_type in (_FIELD_CLASSVAR, _FIELD_INITVAR):
        if not _missing(f.default_factory):
            raise TypeError('field %s cannot have a default factory' % name)
    if f._field_type == _FIELD:
        if _missing(f.kw_only):
            f.kw_only = default_kw_only
    else:
        f.kw_only = False
    if f._field_type == _FIELD and isinstance(f.default, (list, dict, set)):
        raise ValueError('mutable default %s for field %s is not allowed: use default_factory' % (
            type(f.default), name))
    return f


def _set_attr(cls, name, value):
    if name in cls.__dict__:
        return True
    setattr(cls, name, value)
    return False


def _missing_message(qualname, kind, names):
    quoted = ["'%s'" % n for n in names]
    if len(quoted) == 1:
        listed = quoted[0]
    elif len(quoted) == 2:
        listed = quoted[0] + ' and ' + quoted[1]
    else:
        listed = ', '.join(quoted[:-1]) + ', and ' + quoted[-1]
    return '%s() missing %d required %s argument%s: %s' % (
        qualname, len(names), kind, '' if len(names) == 1 else 's', listed)


def _make_init(cls, flds, frozen, has_post_init):
    init_fields = [f for f in flds if f.init]
    pos = [f for f in init_fields if not f.kw_only]
    kwo = [f for f in init_fields if f.kw_only]
    seen_default = False
    for f in pos:
        if f._field_type in (_FIELD, _FIELD_INITVAR):
            if not (_missing(f.default) and _missing(f.default_factory)):
                seen_default = True
            elif seen_default:
                raise TypeError('non-default argument %r follows default argument' % (f.name,))
    other_fields = [f for f in flds if not f.init and f._field_type == _FIELD]
    qualname = cls.__qualname__ + '.__init__'
    npos = len(pos)
    nrequired = len([f for f in pos if _missing(f.default) and _missing(f.default_factory)])
    names = {f.name: f for f in init_fields}

    def _value(f, values):
        if f.name in values:
            return values[f.name]
        if not _missing(f.default_factory):
            return f.default_factory()
        return f.default

    def __init__(self, *args, **kwargs):
        if len(args) > npos:
            given = len(args) + 1
            if nrequired != npos:
                raise TypeError('%s() takes from %d to %d positional arguments but %d %s given' % (
                    qualname, nrequired + 1, npos + 1, given, 'was' if given == 1 else 'were'))
            raise TypeError('%s() takes %d positional argument%s but %d %s given' % (
                qualname, npos + 1, '' if npos == 0 else 's', given, 'was' if given == 1 else 'were'))
        values = {}
        for i, a in enumerate(args):
            values[pos[i].name] = a
        for k, v in kwargs.items():
            if k not in names:
                raise TypeError("%s() got an unexpected keyword argument '%s'" % (qualname, k))
            if k in values:
                raise TypeError("%s() got multiple values for argument '%s'" % (qualname, k))
            values[k] = v
        missing = [f.name for f in pos if f.name not in values and _missing(f.default) and _missing(f.default_factory)]
        if missing:
            raise TypeError(_missing_message(qualname, 'positional', missing))
        missing = [f.name for f in kwo if f.name not in values and _missing(f.default) and _missing(f.default_factory)]
        if missing:
            raise TypeError(_missing_message(qualname, 'keyword-only', missing))
        init_vars = []
        for f in init_fields:
            v = _value(f, values)
            if f._field_type == _FIELD_INITVAR:
                init_vars.append(v)
            elif frozen:
                object.__setattr__(self, f.name, v)
            else:
                setattr(self, f.name, v)
        for f in other_fields:
            if not _missing(f.default_factory):
                v = f.default_factory()
            elif not _missing(f.default):
                v = f.default
            else:
                continue
            if frozen:
                object.__setattr__(self, f.name, v)
            else:
                setattr(self, f.name, v)
        if has_post_init:
            self.__post_init__(*init_vars)

    __init__.__qualname__ = qualname
    return __init__


def _tuple_of(self, flds):
    return tuple([getattr(self, f.name) for f in flds])


def _make_cmp(flds, op):
    def cmp(self, other):
        if other.__class__ is self.__class__:
            a = _tuple_of(self, flds)
            b = _tuple_of(other, flds)
            if op == '__eq__':
                return a == b
            if op == '__lt__':
                return a < b
            if op == '__le__':
                return a <= b
            if op == '__gt__':
                return a > b
            return a >= b
        return NotImplemented
    cmp.__name__ = op
    return cmp


def _process_class(cls, init, repr, eq, order, unsafe_hash, frozen, match_args, kw_only):
    all_fields = {}
    any_frozen_base = False
    has_dataclass_bases = False
    for b in reversed(cls.__mro__[1:]):
        base_fields = b.__dict__.get('__dataclass_fields__')
        if base_fields is not None:
            has_dataclass_bases = True
            for f in base_fields.values():
                all_fields[f.name] = f
            if b.__dict__['__dataclass_params__']['frozen']:
                any_frozen_base = True
    annotations = cls.__dict__.get('__annotations__', {})
    own = []
    kw = kw_only
    for name, tp in annotations.items():
        if isinstance(tp, _KW_ONLY_TYPE):
            kw = True
            continue
        own.append(_get_field(cls, name, tp, kw))
    for f in own:
        all_fields[f.name] = f
        if isinstance(cls.__dict__.get(f.name), Field):
            if _missing(f.default):
                delattr(cls, f.name)
            else:
                setattr(cls, f.name, f.default)
    for name, value in cls.__dict__.items():
        if isinstance(value, Field) and name not in annotations:
            raise TypeError('%r is a field but has no type annotation' % (name,))
    if has_dataclass_bases:
        if any_frozen_base and not frozen:
            raise TypeError('cannot inherit non-frozen dataclass from a frozen one')
        if not any_frozen_base and frozen:
            raise TypeError('cannot inherit frozen dataclass from a non-frozen one')
    cls.__dataclass_fields__ = all_fields
    cls.__dataclass_params__ = {'init': init, 'repr': repr, 'eq': eq, 'order': order,
                                'unsafe_hash': unsafe_hash, 'frozen': frozen}
    flds = [f for f in all_fields.values() if f._field_type == _FIELD]
    if init:
        has_post_init = hasattr(cls, '__post_init__')
        std_init = [f for f in all_fields.values() if f._field_type in (_FIELD, _FIELD_INITVAR)]
        _set_attr(cls, '__init__', _make_init(cls, std_init, frozen, has_post_init))
    if repr:
        repr_fields = [f for f in flds if f.repr]

        def __repr__(self):
            parts = ['%s=%r' % (f.name, getattr(self, f.name)) for f in repr_fields]
            return '%s(%s)' % (self.__class__.__qualname__, ', '.join(parts))
        _set_attr(cls, '__repr__', __repr__)
    cmp_fields = [f for f in flds if f.compare]
    if eq:
        _set_attr(cls, '__eq__', _make_cmp(cmp_fields, '__eq__'))
    if order:
        if not eq:
            raise ValueError('eq must be true if order is true')
        for op in ('__lt__', '__le__', '__gt__', '__ge__'):
            if _set_attr(cls, op, _make_cmp(cmp_fields, op)):
                raise TypeError('Cannot overwrite attribute %s in class %s. Consider using functools.total_ordering' % (op, cls.__name__))
    if frozen:
        frozen_names = [f.name for f in all_fields.values()]

        def __setattr__(self, name, value):
            if type(self) is cls or name in frozen_names:
                raise FrozenInstanceError("cannot assign to field '%s'" % (name,))
            super(cls, self).__setattr__(name, value)

        def __delattr__(self, name):
            if type(self) is cls or name in frozen_names:
                raise FrozenInstanceError("cannot delete field '%s'" % (name,))
            super(cls, self).__delattr__(name)
        if _set_attr(cls, '__setattr__', __setattr__):
            raise TypeError('Cannot overwrite attribute __setattr__ in class %s' % cls.__name__)
        _set_attr(cls, '__delattr__', __delattr__)
    has_explicit_hash = '__hash__' in cls.__dict__ and cls.__dict__['__hash__'] is not None
    hash_fields = [f for f in flds if (f.compare if f.hash is None else f.hash)]

    def __hash__(self):
        return hash(_tuple_of(self, hash_fields))
    if unsafe_hash:
        if has_explicit_hash:
            raise TypeError('Cannot overwrite attribute __hash__ in class %s' % cls.__name__)
        cls.__hash__ = __hash__
    elif eq and frozen:
        if not has_explicit_hash:
            cls.__hash__ = __hash__
    elif eq:
        if not has_explicit_hash:
            cls.__hash__ = None
    if match_args:
        _set_attr(cls, '__match_args__', tuple(f.name for f in std_init_fields(all_fields) if f.init and not f.kw_only))
    return cls


def std_init_fields(all_fields):
    return [f for f in all_fields.values() if f._field_type in (_FIELD, _FIELD_INITVAR)]


def dataclass(cls=None, /, *, init=True, repr=True, eq=True, order=False,
              unsafe_hash=False, frozen=False, match_args=True, kw_only=False, slots=False,
              weakref_slot=False):
    """Add __init__, __repr__, __eq__ (and more on request) to a class from
    its annotated fields."""
    def wrap(cls):
        return _process_class(cls, init, repr, eq, order, unsafe_hash, frozen, match_args, kw_only)
    if cls is None:
        return wrap
    return wrap(cls)


def fields(class_or_instance):
    """The fields of a dataclass or instance, as a tuple of Field."""
    try:
        flds = getattr(class_or_instance, '__dataclass_fields__')
    except AttributeError:
        raise TypeError('must be called with a dataclass type or instance') from None
    return tuple(f for f in flds.values() if f._field_type == _FIELD)


def is_dataclass(obj):
    cls = obj if isinstance(obj, type) else type(obj)
    return hasattr(cls, '__dataclass_fields__')


def _is_dataclass_instance(obj):
    return hasattr(type(obj), '__dataclass_fields__')


def asdict(obj, *, dict_factory=dict):
    """The fields of a dataclass instance as a dict, recursively."""
    if not _is_dataclass_instance(obj):
        raise TypeError('asdict() should be called on dataclass instances')
    return _asdict_inner(obj, dict_factory)


def _asdict_inner(obj, dict_factory):
    if _is_dataclass_instance(obj):
        result = []
        for f in fields(obj):
            result.append((f.name, _asdict_inner(getattr(obj, f.name), dict_factory)))
        return dict_factory(result)
    if isinstance(obj, tuple) and hasattr(obj, '_fields'):
        return type(obj)(*[_asdict_inner(v, dict_factory) for v in obj])
    if isinstance(obj, (list, tuple)):
        return type(obj)([_asdict_inner(v, dict_factory) for v in obj])
    if isinstance(obj, dict):
        if hasattr(type(obj), 'default_factory'):
            result = type(obj)(obj.default_factory)
            for k, v in obj.items():
                result[_asdict_inner(k, dict_factory)] = _asdict_inner(v, dict_factory)
            return result
        return type(obj)((_asdict_inner(k, dict_factory), _asdict_inner(v, dict_factory))
                         for k, v in obj.items())
    return obj


def astuple(obj, *, tuple_factory=tuple):
    """The fields of a dataclass instance as a tuple, recursively."""
    if not _is_dataclass_instance(obj):
        raise TypeError('astuple() should be called on dataclass instances')
    return _astuple_inner(obj, tuple_factory)


def _astuple_inner(obj, tuple_factory):
    if _is_dataclass_instance(obj):
        return tuple_factory([_astuple_inner(getattr(obj, f.name), tuple_factory) for f in fields(obj)])
    if isinstance(obj, tuple) and hasattr(obj, '_fields'):
        return type(obj)(*[_astuple_inner(v, tuple_factory) for v in obj])
    if isinstance(obj, (list, tuple)):
        return type(obj)([_astuple_inner(v, tuple_factory) for v in obj])
    if isinstance(obj, dict):
        return type(obj)((_astuple_inner(k, tuple_factory), _astuple_inner(v, tuple_factory))
                         for k, v in obj.items())
    return obj


def replace(obj, /, **changes):
    """A new instance of obj's class with some fields changed."""
    if not _is_dataclass_instance(obj):
        raise TypeError('replace() should be called on dataclass instances')
    for f in obj.__dataclass_fields__.values():
        if f._field_type == _FIELD_CLASSVAR:
            continue
        if not f.init:
            if f.name in changes:
                raise ValueError('field %s is declared with init=False, it cannot be specified with replace()' % (f.name,))
            continue
        if f.name not in changes:
            if f._field_type == _FIELD_INITVAR and _missing(f.default):
                raise ValueError("InitVar %r must be specified with replace()" % (f.name,))
            changes[f.name] = getattr(obj, f.name)
    return obj.__class__(**changes)


def make_dataclass(cls_name, fields, *, bases=(), namespace=None, init=True, repr=True,
                   eq=True, order=False, unsafe_hash=False, frozen=False, match_args=True,
                   kw_only=False, module=None):
    """Create a dataclass from a list of field specs."""
    ns = dict(namespace or {})
    annotations = {}
    for item in fields:
        if isinstance(item, str):
            name, tp = item, 'typing.Any'
        elif len(item) == 2:
            name, tp = item
        else:
            name, tp, spec = item
            ns[name] = spec
        annotations[name] = tp
    ns['__annotations__'] = annotations
    ns['__module__'] = module if module is not None else '__main__'
    cls = type(cls_name, bases, ns)
    return dataclass(cls, init=init, repr=repr, eq=eq, order=order, unsafe_hash=unsafe_hash,
                     frozen=frozen, match_args=match_args, kw_only=kw_only)
