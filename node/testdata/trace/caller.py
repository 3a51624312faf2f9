# Stores a note, emits an event and sends a message to the callee, whose
# handler fails: a trace shows both handlers, their host calls and the
# callee's traceback line.
from cowboy_sdk import actor, emit_event, send_message


@actor
class Caller:
    def __init__(self):
        self.storage["calls"] = 0

    def go(self, callee, n):
        self.storage["calls"] += 1
        emit_event("Went", {"n": n})
        send_message(callee, "work", n)
