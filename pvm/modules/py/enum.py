# enum for the PVM: Enum, IntEnum, StrEnum, Flag, IntFlag, auto, unique.
#
# EnumType is a real metaclass: it turns the class body's plain attributes
# into singleton members, and makes the class iterable, indexable by name
# (Color['RED']) and callable by value (Color(1)).

__all__ = ['EnumType', 'EnumMeta', 'Enum', 'IntEnum', 'StrEnum', 'Flag', 'IntFlag',
           'ReprEnum', 'auto', 'unique', 'property']


class auto:
    # Stands for the value the enum's _generate_next_value_ picks.

    def __init__(self, value=None):
        self.value = value
        self._resolved = value is not None

    def __repr__(self):
        return 'auto(%r)' % (self.value,)


def _is_dunder(name):
    return len(name) > 4 and name[:2] == name[-2:] == '__' and name[2] != '_' and name[-3] != '_'


def _is_sunder(name):
    return len(name) > 2 and name[0] == name[-1] == '_' and name[1] != '_' and name[-2] != '_'


def _is_descriptor(obj):
    return (hasattr(obj, '__get__') or hasattr(obj, '__set__') or hasattr(obj, '__delete__')
            or isinstance(obj, (property, classmethod, staticmethod)) or callable(obj))


def _data_type(bases):
    for chain in bases:
        for base in chain.__mro__:
            if base is object:
                continue
            if isinstance(base, EnumType):
                if base._member_type_ is not object:
                    return base._member_type_
                continue
            if base in (int, str, float, tuple, bytes) or '__new__' in base.__dict__:
                return base
    return object


class EnumType(type):
    # Metaclass of Enum.

    def __new__(metacls, cls, bases, classdict, **kwds):
        for base in bases:
            if isinstance(base, EnumType) and base._member_names_:
                raise TypeError('<enum %r> cannot extend %r' % (cls, base))
        member_names = []
        for key, value in classdict.items():
            if _is_dunder(key) or _is_sunder(key) or key.startswith('_%s__' % cls):
                continue
            if isinstance(value, auto) or not _is_descriptor(value):
                member_names.append(key)
        members = {}
        for key in member_names:
            members[key] = classdict.pop(key)
        user_new = None
        if _enum_new is not None:
            user_new = classdict.pop('__new__', None)
        member_type = _data_type(bases)
        enum_class = super().__new__(metacls, cls, bases, classdict, **kwds)
        first_enum = None
        for base in bases:
            if isinstance(base, EnumType):
                first_enum = base
        if first_enum is not None:
            # As CPython does: the data type's repr/str/format give way to
            # the enum's unless the class body defines them.
            for name in ('__repr__', '__str__', '__format__'):
                if name in classdict:
                    continue
                found = getattr(enum_class, name, None)
                if found is getattr(member_type, name, None) or found is getattr(object, name, None):
                    type.__setattr__(enum_class, name, first_enum.__dict__.get(name, getattr(first_enum, name)))
        if _enum_new is not None:
            type.__setattr__(enum_class, '__new__', _enum_new)
        type.__setattr__(enum_class, '_member_names_', [])
        type.__setattr__(enum_class, '_member_map_', {})
        type.__setattr__(enum_class, '_value2member_map_', {})
        type.__setattr__(enum_class, '_member_type_', member_type)
        if user_new is None:
            for base in enum_class.__mro__[1:]:
                if '_new_member_' in base.__dict__:
                    user_new = base.__dict__['_new_member_']
                    break
        type.__setattr__(enum_class, '_new_member_', user_new)
        generate = enum_class._generate_next_value_
        last_values = []
        for name in member_names:
            value = members[name]
            if isinstance(value, auto):
                if not value._resolved:
                    value.value = generate(name, 1, len(last_values), last_values[:])
                    value._resolved = True
                value = value.value
            last_values.append(value)
            metacls._add_member(enum_class, name, value)
        return enum_class

    def _add_member(enum_class, name, value):
        member_type = enum_class._member_type_
        if isinstance(value, tuple):
            args = value
        else:
            args = (value,)
        if member_type is tuple:
            args = (args,)
        user_new = enum_class._new_member_
        if user_new is not None:
            member = user_new(enum_class, *args)
        elif member_type is object:
            member = object.__new__(enum_class)
        else:
            member = member_type.__new__(enum_class, *args)
        if not hasattr(member, '_value_'):
            if member_type is object:
                member._value_ = value
            else:
                member._value_ = member_type(*args)
        value = member._value_
        member._name_ = name
        member.__objclass__ = enum_class
        member.__init__(*args)
        for other in enum_class._member_map_.values():
            if other._value_ == value:
                enum_class._member_map_[name] = other
                type.__setattr__(enum_class, name, other)
                return
        enum_class._member_names_.append(name)
        enum_class._member_map_[name] = member
        try:
            enum_class._value2member_map_[value] = member
        except TypeError:
            pass
        type.__setattr__(enum_class, name, member)

    def __call__(cls, value, names=None, *, module=None, qualname=None, type=None, start=1, boundary=None):
        if names is None:
            return cls.__new__(cls, value)
        return cls._create_(value, names, module=module, type=type, start=start)

    def _create_(cls, class_name, names, *, module=None, type=None, start=1):
        bases = (cls,) if type is None else (type, cls)
        if isinstance(names, str):
            names = names.replace(',', ' ').split()
        classdict = {}
        if isinstance(names, (tuple, list)) and names and isinstance(names[0], str):
            last = []
            for count, name in enumerate(names):
                value = cls._generate_next_value_(name, start, count, last[:])
                last.append(value)
                classdict[name] = value
        elif isinstance(names, dict):
            classdict.update(names)
        else:
            for name, value in names:
                classdict[name] = value
        classdict['__module__'] = module if module is not None else '__main__'
        return EnumType(class_name, bases, classdict)

    def __contains__(cls, member):
        if not isinstance(member, Enum):
            raise TypeError("unsupported operand type(s) for 'in': '%s' and '%s'" % (
                type(member).__qualname__, cls.__class__.__qualname__))
        return isinstance(member, cls) and member._name_ in cls._member_map_

    def __delattr__(cls, attr):
        if attr in cls._member_map_:
            raise AttributeError('%r cannot delete member %r.' % (cls.__name__, attr))
        super().__delattr__(attr)

    def __getitem__(cls, name):
        return cls._member_map_[name]

    def __iter__(cls):
        return iter([cls._member_map_[name] for name in cls._member_names_])

    def __reversed__(cls):
        return iter([cls._member_map_[name] for name in reversed(cls._member_names_)])

    def __len__(cls):
        return len(cls._member_names_)

    def __bool__(cls):
        return True

    @property
    def __members__(cls):
        return dict(cls._member_map_)

    def __repr__(cls):
        if Flag is not None and issubclass(cls, Flag):
            return "<flag %r>" % cls.__name__
        return "<enum %r>" % cls.__name__

    def __setattr__(cls, name, value):
        member_map = cls.__dict__.get('_member_map_', {})
        if name in member_map:
            raise AttributeError('cannot reassign member %r' % (name,))
        super().__setattr__(name, value)


EnumMeta = EnumType
Flag = None
_enum_new = None


class Enum(metaclass=EnumType):
    # Generic enumeration: subclass it to define members.

    def __new__(cls, value):
        if isinstance(value, cls):
            return value
        try:
            return cls._value2member_map_[value]
        except (KeyError, TypeError):
            pass
        for member in cls._member_map_.values():
            if member._value_ == value:
                return member
        result = cls._missing_(value)
        if isinstance(result, cls):
            return result
        if result is None:
            raise ValueError('%r is not a valid %s' % (value, cls.__qualname__))
        raise TypeError('error in %s._missing_: returned %r instead of None or a valid member' % (
            cls.__name__, result))

    def __init__(self, *args, **kwds):
        pass

    @staticmethod
    def _generate_next_value_(name, start, count, last_values):
        if not last_values:
            return start
        last = last_values[-1]
        try:
            return last + 1
        except TypeError:
            raise TypeError('unable to sort non-numeric values') from None

    @classmethod
    def _missing_(cls, value):
        return None

    def __repr__(self):
        return '<%s.%s: %r>' % (self.__class__.__name__, self._name_, self._value_)

    def __str__(self):
        return '%s.%s' % (self.__class__.__name__, self._name_)

    def __format__(self, format_spec):
        return format(str(self), format_spec)

    def __hash__(self):
        return hash(self._name_)

    def __reduce_ex__(self, proto):
        return self.__class__, (self._value_,)

    @property
    def name(self):
        return self._name_

    @property
    def value(self):
        return self._value_


_enum_new = Enum.__dict__['__new__']


class ReprEnum(Enum):
    pass  # An enum whose str() and format() are those of its data type.


class IntEnum(int, ReprEnum):
    # Enum whose members are also ints.

    def __str__(self):
        return int.__repr__(self)

    def __format__(self, format_spec):
        return int.__format__(self, format_spec)


class StrEnum(str, ReprEnum):
    # Enum whose members are also strings.

    def __str__(self):
        return str.__str__(self)

    def __format__(self, format_spec):
        return str.__format__(self, format_spec)

    @staticmethod
    def _generate_next_value_(name, start, count, last_values):
        return name.lower()


def _high_bit(value):
    return value.bit_length() - 1


class Flag(Enum):
    # Members combine with | & ^ ~ into composite flags.

    @staticmethod
    def _generate_next_value_(name, start, count, last_values):
        if not count:
            return start if start is not None else 1
        high = 0
        for v in last_values:
            if isinstance(v, int) and v > 0 and _high_bit(v) + 1 > high:
                high = _high_bit(v) + 1
        return 2 ** high

    @classmethod
    def _missing_(cls, value):
        if not isinstance(value, int):
            raise ValueError('%r is not a valid %s' % (value, cls.__qualname__))
        all_bits = 0
        for m in cls._member_map_.values():
            all_bits |= m._value_
        if value < 0:
            value = all_bits + 1 + value
            if value < 0:
                raise ValueError('%r is not a valid %s' % (value, cls.__qualname__))
        if value & ~all_bits:
            raise ValueError('%r is not a valid %s' % (value, cls.__qualname__))
        if cls._member_type_ is object:
            pseudo = object.__new__(cls)
        else:
            pseudo = cls._member_type_.__new__(cls, value)
        pseudo._value_ = value
        names = [m._name_ for m in cls._decompose(value)]
        pseudo._name_ = '|'.join(names) if names else None
        cls._value2member_map_[value] = pseudo
        return pseudo

    @classmethod
    def _decompose(cls, value):
        out = []
        for name in cls._member_names_:
            m = cls._member_map_[name]
            v = m._value_
            if v and v & (v - 1) == 0 and v & value == v:
                out.append(m)
        return out

    def __iter__(self):
        return iter(self.__class__._decompose(self._value_))

    def __len__(self):
        return len(self.__class__._decompose(self._value_))

    def __contains__(self, other):
        if not isinstance(other, self.__class__):
            raise TypeError("unsupported operand type(s) for 'in': '%s' and '%s'" % (
                type(other).__qualname__, self.__class__.__qualname__))
        return other._value_ & self._value_ == other._value_

    def __repr__(self):
        if self._name_ is None:
            return '<%s: %r>' % (self.__class__.__name__, self._value_)
        return '<%s.%s: %r>' % (self.__class__.__name__, self._name_, self._value_)

    def __str__(self):
        if self._name_ is None:
            return '%s(%r)' % (self.__class__.__name__, self._value_)
        return '%s.%s' % (self.__class__.__name__, self._name_)

    def __bool__(self):
        return bool(self._value_)

    def __or__(self, other):
        if not isinstance(other, self.__class__):
            return NotImplemented
        return self.__class__(self._value_ | other._value_)

    def __and__(self, other):
        if not isinstance(other, self.__class__):
            return NotImplemented
        return self.__class__(self._value_ & other._value_)

    def __xor__(self, other):
        if not isinstance(other, self.__class__):
            return NotImplemented
        return self.__class__(self._value_ ^ other._value_)

    def __invert__(self):
        all_bits = 0
        for m in self.__class__._member_map_.values():
            all_bits |= m._value_
        return self.__class__(all_bits & ~self._value_)

    __ror__ = __or__
    __rand__ = __and__
    __rxor__ = __xor__


class IntFlag(int, ReprEnum, Flag):
    # Flag whose members are also ints.

    def __str__(self):
        return int.__repr__(self)

    def __format__(self, format_spec):
        return int.__format__(self, format_spec)

    def __or__(self, other):
        if isinstance(other, int) and not isinstance(other, self.__class__):
            other = self.__class__(other)
        return Flag.__or__(self, other)

    def __and__(self, other):
        if isinstance(other, int) and not isinstance(other, self.__class__):
            other = self.__class__(other)
        return Flag.__and__(self, other)

    __ror__ = __or__
    __rand__ = __and__


def unique(enumeration):
    """Class decorator: refuse aliases (two names for one value)."""
    duplicates = []
    for name, member in enumeration.__members__.items():
        if name != member.name:
            duplicates.append((name, member.name))
    if duplicates:
        alias_details = ', '.join(['%s -> %s' % (alias, name) for (alias, name) in duplicates])
        raise ValueError('duplicate values found in %r: %s' % (enumeration, alias_details))
    return enumeration
