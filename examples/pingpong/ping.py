# Ping and Pong message each other: start() sends the first ping; each
# message is delivered after the handler that sent it completes, in the
# same block (technical spec §3.3).
from cowboy_sdk import actor, context, emit_event, send_message


@actor
class Ping:
    def __init__(self):
        self.storage["pongs"] = 0

    def start(self, pong, rounds):
        send_message(pong, "ping", rounds)

    def pong(self, rounds_left):
        self.storage["pongs"] += 1
        emit_event("Pong", {"from": context.sender, "left": rounds_left})
        if rounds_left > 0:
            send_message(context.sender, "ping", rounds_left)

    def pongs(self):
        return self.storage["pongs"]
