class AppError(Exception):
    code = 1
    def __init__(self, msg, detail=None):
        super().__init__(msg)
        self.detail = detail
    def __str__(self):
        base = super().__str__()
        return f"[{self.code}] {base}" + (f" ({self.detail})" if self.detail else "")
class NotFound(AppError):
    code = 404
try:
    raise NotFound("no such item", detail="id=7")
except AppError as e:
    print(e, "|", repr(e.args), "|", e.detail, e.code)
errors = []
for exc in [ValueError("a"), KeyError("b"), NotFound("c")]:
    try:
        raise exc
    except LookupError as e:
        errors.append(("lookup", str(e)))
    except AppError as e:
        errors.append(("app", str(e)))
    except Exception as e:
        errors.append(("other", str(e)))
print(errors)
def validate(x):
    if not isinstance(x, int):
        raise TypeError(f"expected int, got {type(x).__name__}")
    return x
for v in [1, "s", 2.0]:
    try:
        print(validate(v))
    except TypeError as e:
        print("invalid:", e)
print(isinstance(NotFound("x"), Exception), issubclass(NotFound, AppError), NotFound.__mro__[1].__name__)
