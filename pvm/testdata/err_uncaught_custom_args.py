# A custom exception with several args, uncaught.
class TransferRejected(Exception):
    pass


def transfer(src, dst, amount):
    if amount > 100:
        raise TransferRejected(src, dst, amount)
    return "ok"


print(transfer("a", "b", 5))
transfer("a", "b", 500)
