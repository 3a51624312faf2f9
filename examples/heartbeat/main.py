"""Heartbeat: an actor that wakes itself up every 5 blocks (docs/timers.md).

set_interval schedules self.beat({"note": "hi"}) every 5 blocks with no
keeper outside the chain; stop() cancels it and gets the deposit back.
get_gas_bid makes this actor a Gas Bidding Agent (CIP-1): pass its own
address as `gba` and its timers bid a tip of 2 per cycle when due.
"""

from cowboy_sdk import actor, set_interval, cancel_timer


@actor
class Heartbeat:
    def __init__(self):
        self.storage["beats"] = 0
        self.storage["tid"] = set_interval(5, "beat", {"note": "hi"})

    def beat(self, data):
        self.storage["beats"] += 1

    def beats(self):
        return self.storage["beats"]

    def stop(self):
        return cancel_timer(self.storage["tid"])

    def get_gas_bid(self, context):
        return {"tip_per_cycle": 2, "max_fee_per_cycle": context["basefee_cycle"] * 2,
                "tip_per_cell": 0, "max_fee_per_cell": context["basefee_cell"] * 2}
