# A module the PVM does not have raises ModuleNotFoundError, the
# ImportError subclass CPython raises for a module it cannot find, so the
# usual fallbacks work. (The message says why; CPython's says "No module
# named", so it is not printed here.)
try:
    import numpy_not_installed_anywhere
except ModuleNotFoundError as e:
    print(type(e).__name__, isinstance(e, ImportError))

try:
    from no_such_module_here import thing
except ImportError as e:
    print(type(e).__name__)

try:
    import no_such.sub
except ModuleNotFoundError:
    print('dotted: ModuleNotFoundError')

try:
    from collections import no_such_name
except ImportError as e:
    print(type(e).__name__)

def fast_sum(xs):
    try:
        import accelerated_sums_lib as acc
    except ModuleNotFoundError:
        return sum(xs)
    return acc.sum(xs)

print(fast_sum([1, 2, 3]))
