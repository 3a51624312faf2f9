# A custom exception hierarchy with codes, catching by base class and ordering.
class ActorError(Exception):
    code = 1

    def __init__(self, msg, **ctx):
        super().__init__(msg)
        self.ctx = ctx

    def __str__(self):
        extra = ", ".join(f"{k}={v}" for k, v in sorted(self.ctx.items()))
        return f"[{self.code}] {self.args[0]}" + (f" ({extra})" if extra else "")


class AuthError(ActorError):
    code = 401


class LimitError(ActorError):
    code = 429


class QuotaError(LimitError):
    code = 430


def act(kind):
    if kind == "auth":
        raise AuthError("not owner", who="eve")
    if kind == "limit":
        raise LimitError("too many calls", per_block=3)
    if kind == "quota":
        raise QuotaError("quota exhausted", used=10, cap=10)
    if kind == "other":
        raise RuntimeError("unexpected")
    return "ok"


for k in ["none", "auth", "limit", "quota", "other"]:
    try:
        print(k, act(k))
    except LimitError as e:
        print(k, "limit family:", e, type(e).__name__, e.code)
    except ActorError as e:
        print(k, "actor error:", e, repr(e))
    except Exception as e:
        print(k, "other:", type(e).__name__, e)
print([c.__name__ for c in QuotaError.__mro__])
errors = []
for k in ["auth", "quota"]:
    try:
        act(k)
    except ActorError as e:
        errors.append(e)
print(sorted(errors, key=lambda e: -e.code)[0].ctx, isinstance(errors[1], LimitError))
try:
    raise QuotaError("x") from AuthError("y")
except ActorError as e:
    print(e, "<-", e.__cause__)
