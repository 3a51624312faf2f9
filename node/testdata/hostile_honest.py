# An honest actor with one urgent timer: it is its own Gas Bidding Agent
# and bids a tip of 5 per cycle over the basefee (CIP-1).
from cowboy_sdk import actor, set_timer


@actor
class Honest:
    def arm(self, h, gba):
        return set_timer(h, "work", 0, gba)

    def work(self, i):
        x = 0
        for j in range(12000):
            x += j

    def get_gas_bid(self, context):
        return {"tip_per_cycle": 5, "max_fee_per_cycle": context["basefee_cycle"] + 5,
                "tip_per_cell": 0, "max_fee_per_cell": context["basefee_cell"]}
