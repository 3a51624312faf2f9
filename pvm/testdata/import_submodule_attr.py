# `import a.b` imports a and then a.b, sets a.b as the attribute b of a,
# and binds a (CPython's IMPORT_NAME without a fromlist).
import collections.abc

print(collections.abc.Mapping)
print(collections.abc.__name__, collections.__name__)
print(issubclass(dict, collections.abc.Mapping))
print(isinstance([], collections.abc.Sequence))
print(collections.OrderedDict is collections.OrderedDict)


def f():
    # In a function the binding is a local.
    import collections.abc

    return collections.abc.Iterable


print(f())

import collections

print(collections.abc.Sized)

# `import a.b as c` binds the submodule itself.
import collections.abc as cabc

print(cabc is collections.abc)


# An unknown submodule is refused, as CPython refuses it.
try:
    import collections.nosuchmodule
except ModuleNotFoundError as e:
    print("ModuleNotFoundError")


class C:
    import collections.abc


print(C.collections.abc.Hashable)
