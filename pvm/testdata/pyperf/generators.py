"""pyperformance bm_generators: benchmark recursive generators implemented
in Python (yield from over a balanced binary tree).

Adapted for the PVM: a checksum is printed, and the tree is smaller. The
original traverses tree(range(100000)), which holds 12.8 MB in CPython 3.11
(tracemalloc), more than the PVM's 10 MiB per-call limit (technical spec
v2 section 3.2) allows; this one has 2**14 nodes, traversed 6 times.
"""

DEFAULT_DEPTH = 14


class Tree:
    def __init__(self, left, value, right):
        self.left = left
        self.value = value
        self.right = right

    def __iter__(self):
        if self.left:
            yield from self.left
        yield self.value
        if self.right:
            yield from self.right


def tree(input):
    n = len(input)
    if n == 0:
        return None
    i = n // 2
    return Tree(tree(input[:i]), input[i], tree(input[i + 1:]))


def bench_generators(loops, depth):
    assert list(tree(range(10))) == list(range(10))
    t = tree(range(2 ** depth))
    total = 0
    count = 0
    for _ in range(loops):
        for v in t:
            total += v
            count += 1
    return total, count


if __name__ == "__main__":
    total, count = bench_generators(6, DEFAULT_DEPTH)
    print("visited", count, "sum", total)
