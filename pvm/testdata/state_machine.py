TRANSITIONS = {
    ("idle", "start"): "running",
    ("running", "pause"): "paused",
    ("paused", "resume"): "running",
    ("running", "stop"): "idle",
    ("paused", "stop"): "idle",
}
class Machine:
    def __init__(self):
        self.state = "idle"
        self.history = []
    def fire(self, event):
        key = (self.state, event)
        if key not in TRANSITIONS:
            raise ValueError(f"bad event {event!r} in state {self.state!r}")
        self.history.append((self.state, event))
        self.state = TRANSITIONS[key]
        return self.state
m = Machine()
for ev in ["start", "pause", "resume", "stop", "resume"]:
    try:
        print(ev, "->", m.fire(ev))
    except ValueError as e:
        print("error:", e)
print(m.history, m.state)
