class Queue:
    def __init__(self):
        self.items = []
        self.head = 0
    def push(self, x):
        self.items.append(x)
    def pop(self):
        if self.head >= len(self.items):
            raise IndexError("pop from empty queue")
        x = self.items[self.head]
        self.head += 1
        return x
    def __len__(self):
        return len(self.items) - self.head
def bfs(graph, start):
    seen = {start}
    order = []
    q = Queue()
    q.push(start)
    while len(q):
        n = q.pop()
        order.append(n)
        for nb in graph.get(n, []):
            if nb not in seen:
                seen.add(nb)
                q.push(nb)
    return order
g = {"a": ["b", "c"], "b": ["d"], "c": ["d", "e"], "d": ["f"], "e": ["f"], "f": []}
print(bfs(g, "a"))
def dfs(graph, n, seen=None):
    seen = [] if seen is None else seen
    if n in seen:
        return seen
    seen.append(n)
    for nb in graph[n]:
        dfs(graph, nb, seen)
    return seen
print(dfs(g, "a"))
q = Queue()
try:
    q.pop()
except IndexError as e:
    print(e)
