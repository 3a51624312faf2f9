def matmul(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(len(b))) for j in range(len(b[0]))] for i in range(len(a))]
def transpose(m):
    return [list(r) for r in zip(*m)]
def identity(n):
    return [[1 if i == j else 0 for j in range(n)] for i in range(n)]
def det(m):
    if len(m) == 1:
        return m[0][0]
    return sum((-1) ** j * m[0][j] * det([row[:j] + row[j + 1:] for row in m[1:]]) for j in range(len(m)))
A = [[1, 2], [3, 4]]
B = [[5, 6], [7, 8]]
print(matmul(A, B), transpose(A), matmul(A, identity(2)) == A, det(A), det([[2, 0, 1], [1, 3, 2], [1, 1, 1]]))
P = identity(3)
for _ in range(3):
    P = matmul(P, [[0, 1, 0], [0, 0, 1], [1, 0, 0]])
print(P == identity(3))
