class Range3:
    def __init__(self):
        self.i = 0
    def __iter__(self):
        return self
    def __next__(self):
        if self.i >= 3:
            raise StopIteration
        self.i += 1
        return self.i
print(list(Range3()), sum(Range3()), [x * 2 for x in Range3()])
class Seq:
    def __getitem__(self, i):
        if i >= 4:
            raise IndexError
        return i * 10
print(list(Seq()), 20 in Seq())
it = iter([1, 2, 3])
print(next(it), next(it), list(it), next(it, "default"))
class Tree:
    def __init__(self, v, kids=()):
        self.v, self.kids = v, kids
    def __iter__(self):
        yield self.v
        for k in self.kids:
            yield from k
t = Tree(1, [Tree(2, [Tree(3)]), Tree(4)])
print(list(t))
e = enumerate(["a", "b"])
print(next(e), list(e))
print(list(iter(range(3))), list(reversed(range(1, 4))))
