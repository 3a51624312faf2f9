# Tallying on-chain events with collections.Counter.
from collections import Counter

events = ["mint", "transfer", "transfer", "burn", "transfer", "approve", "mint", "transfer"]
c = Counter(events)
print(c)
print(c.most_common(2), c["transfer"], c["missing"])
print(sorted(c.elements()))
c.update(["burn", "burn"])
c.subtract({"transfer": 3, "mint": 5})
print(c)
print(+c)
print(-c)
a = Counter(a=3, b=1, c=2)
b = Counter(a=1, b=2, d=4)
print(a + b, a - b, a & b, a | b, sep="\n")
print(a.total(), list(a.keys()), dict(a))
votes = Counter()
for ballot in ["x y", "y z", "x", "z z", "y"]:
    for choice in ballot.split():
        votes[choice] += 1
print(votes.most_common())
winner, n = votes.most_common(1)[0]
print(f"winner {winner} with {n}")
del votes["z"]
print(votes, "z" in votes, len(votes))
words = Counter("the quick brown fox jumps over the lazy dog the end".split())
print([w for w, k in words.items() if k > 1], words == Counter(dict(words)))
print(Counter("abracadabra").most_common(3))
