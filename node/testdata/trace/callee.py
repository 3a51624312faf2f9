# Fails on purpose when asked for a negative amount of work.
from cowboy_sdk import actor


@actor
class Callee:
    def __init__(self):
        self.storage["done"] = 0

    def work(self, n):
        if n < 0:
            raise ValueError("no negative work")
        self.storage["done"] += n
