# An actor that tries to flood the timer queue (issue 13's hostile
# scenario): bomb aims n timers at one height, spread n across 5,000
# heights. Refused timers (surcharge unpaid, per-actor cap) are counted,
# not fatal. Its timers bid the network default (no GBA).
from cowboy_sdk import actor, set_timer


@actor
class Attacker:
    def bomb(self, h, n):
        ok = 0
        for i in range(n):
            try:
                set_timer(h, "work", i)
                ok += 1
            except ValueError:
                pass
        return ok

    def spread(self, start, n, tried):
        ok = 0
        for i in range(n):
            try:
                set_timer(start + (tried + i) % 5000, "work", i)
                ok += 1
            except ValueError:
                pass
        return ok

    def work(self, i):
        x = 0
        for j in range(12000):
            x += j
