# collections' classes are subscriptable as CPython's are (types.GenericAlias),
# so annotations such as deque[int] evaluate; a class may use the idiom
# __class_getitem__ = classmethod(GenericAlias) itself.
from collections import deque, OrderedDict, defaultdict, Counter

print(deque[int], OrderedDict[str, int], defaultdict[str, list[int]], Counter[str])

def bfs(start: int, graph: dict[int, list[int]]) -> list[int]:
    queue: deque[int] = deque([start])
    seen = [start]
    while queue:
        for nxt in graph[queue.popleft()]:
            if nxt not in seen:
                seen.append(nxt)
                queue.append(nxt)
    return seen

print(bfs(0, {0: [1, 2], 1: [3], 2: [3], 3: []}), bfs.__annotations__['return'])
print(deque[int](range(3)), type(deque[int]).__name__)
print(Counter[str]('abca').most_common(1), defaultdict[str, int](int)['x'])

GenericAlias = type(list[int])

class Box:
    __class_getitem__ = classmethod(GenericAlias)

print(Box[int], Box[int, str], GenericAlias(list, (int,)), GenericAlias(dict, (str, int)))
try:
    GenericAlias(list)
except TypeError as e:
    print('TypeError')

class Queue(deque):
    pass

print(Queue[int], list(Queue[int]([1, 2])))
