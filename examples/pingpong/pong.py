# The other half of the pair: answers every ping with a pong.
from cowboy_sdk import actor, context, send_message


@actor
class Pong:
    def __init__(self):
        self.storage["pings"] = 0

    def ping(self, rounds_left):
        self.storage["pings"] += 1
        send_message(context.sender, "pong", rounds_left - 1)

    def pings(self):
        return self.storage["pings"]
