# A game-item actor: crafting recipes, inventories with Counter, trade checks.
from collections import Counter

RECIPES = {
    "sword": Counter(iron=3, wood=1),
    "shield": Counter(iron=2, wood=2),
    "bow": Counter(wood=3, string=2),
}


class Player:
    def __init__(self, name, **items):
        self.name = name
        self.inv = Counter(items)

    def can_craft(self, item):
        need = RECIPES[item]
        return all(self.inv[k] >= n for k, n in need.items())

    def craft(self, item):
        if item not in RECIPES:
            raise KeyError(item)
        if not self.can_craft(item):
            missing = RECIPES[item] - self.inv
            raise ValueError(f"{self.name} lacks {dict(sorted(missing.items()))}")
        self.inv -= RECIPES[item]
        self.inv[item] += 1


def trade(a, b, give, get):
    if (Counter(give) - a.inv) or (Counter(get) - b.inv):
        return "rejected"
    a.inv.subtract(give)
    b.inv.subtract(get)
    a.inv.update(get)
    b.inv.update(give)
    return "done"


p = Player("ann", iron=7, wood=4)
q = Player("bob", wood=5, string=3)
for item in ["sword", "sword", "bow", "shield", "axe"]:
    try:
        p.craft(item)
        print("crafted", item)
    except ValueError as e:
        print("ValueError:", e)
    except KeyError as e:
        print("unknown recipe", e)
print(trade(p, q, {"sword": 1}, {"wood": 3, "string": 2}), trade(p, q, {"iron": 5}, {"wood": 1}))
p.craft("bow")
print(sorted((+p.inv).items()), sorted((+q.inv).items()))
print([r for r in RECIPES if q.can_craft(r)], p.inv.most_common(2))
