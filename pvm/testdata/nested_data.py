data = {"users": [{"name": "a", "tags": ["x", "y"]}, {"name": "b", "tags": []}]}
for u in data["users"]:
    print(u["name"], len(u["tags"]), ",".join(u["tags"]) or "-")
data["users"][1]["tags"].append("z")
print(data)
matrix = [[i * 3 + j for j in range(3)] for i in range(3)]
print(matrix, [row[::-1] for row in matrix], sum(map(sum, matrix)))
transposed = list(map(list, zip(*matrix)))
print(transposed)
flat = [x for row in matrix for x in row if x % 2]
print(flat)
import_like = {k: {kk: vv for kk, vv in v.items()} for k, v in {"a": {"x": 1}}.items()}
print(import_like)
