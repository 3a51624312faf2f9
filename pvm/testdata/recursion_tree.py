class Node:
    def __init__(self, val, left=None, right=None):
        self.val, self.left, self.right = val, left, right
def insert(root, v):
    if root is None:
        return Node(v)
    if v < root.val:
        root.left = insert(root.left, v)
    else:
        root.right = insert(root.right, v)
    return root
def inorder(n):
    return inorder(n.left) + [n.val] + inorder(n.right) if n else []
def height(n):
    return 1 + max(height(n.left), height(n.right)) if n else 0
root = None
for v in [50, 30, 70, 20, 40, 60, 80, 35, 45, 65]:
    root = insert(root, v)
print(inorder(root), height(root))
def flatten(xs):
    out = []
    for x in xs:
        if isinstance(x, list):
            out.extend(flatten(x))
        else:
            out.append(x)
    return out
print(flatten([1, [2, [3, [4, [5]]]], 6]))
def permutations(s):
    if len(s) <= 1:
        return [s]
    return [c + p for i, c in enumerate(s) for p in permutations(s[:i] + s[i + 1:])]
print(permutations("abc"), len(permutations("abcd")))
