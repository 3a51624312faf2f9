groups = {}
for word in "apple avocado banana blueberry cherry".split():
    groups.setdefault(word[0], []).append(word)
print(groups)
print({k: len(v) for k, v in groups.items()}, max(groups, key=lambda k: len(groups[k])))
inverted = {w: k for k, ws in groups.items() for w in ws}
print(inverted["banana"], len(inverted))
