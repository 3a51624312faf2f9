try:
    int("q")
except ValueError:
    raise LookupError("lookup failed") from None
