data = [{'name': 'b', 'age': 3}, {'name': 'a', 'age': 5}]
by_age = sorted(data, key=lambda d: (-d['age'], d['name']))
names = ', '.join(d['name'] for d in by_age)
totals = {k: sum(v) for k, v in groups.items() if v}
matrix = [[i * j for j in range(3)] for i in range(3)]
flat = [x for row in matrix for x in row if x % 2 == 0]
