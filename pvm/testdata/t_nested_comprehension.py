grid = [[(r, c) for c in range(3)] for r in range(2)]
print(grid)
print([cell for row in grid for cell in row if sum(cell) % 2 == 0])
print({r: [c for c in range(r)] for r in range(4)})
print([[y * 2 for y in x] for x in [[1, 2], [3]]])
print(sum(sum(row) for row in [[1, 2], [3, 4]]))
