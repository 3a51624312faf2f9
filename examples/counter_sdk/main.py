# The same counter with the CIP-6 cowboy_sdk (innovations-overview §3):
# state lives in self.storage, one storage key per entry.
from cowboy_sdk import actor


@actor
class Counter:
    def __init__(self):
        self.storage["count"] = 0

    def increment(self):
        self.storage["count"] += 1
        return self.storage["count"]

    def get_count(self):
        return self.storage["count"]
