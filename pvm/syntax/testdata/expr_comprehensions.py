[x for x in y]
[x for x in y if x]
[x for x in y if x if not z]
[(x, y) for x in a for y in b]
{x for x in y}
{k: v for k, v in d.items()}
(x for x in y)
[x for x, in y]
[[j for j in i] for i in m]
[x for x in (lambda: y)()]
{k: [v for v in vs if v] for k, vs in m}
