# The scaffolded hello actor of innovations-overview §3, written with the
# low-level model: a plain class whose instance attributes persist.
class Actor:
    """A Cowboy actor deployed on-chain."""

    def __init__(self):
        self.counter = 0

    def increment(self):
        self.counter += 1
        return self.counter

    def get_count(self):
        return self.counter
