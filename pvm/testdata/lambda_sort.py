people = [("ann", 31), ("bob", 25), ("cy", 31), ("di", 22)]
print(sorted(people, key=lambda p: p[1]))
print(sorted(people, key=lambda p: (-p[1], p[0])))
print(max(people, key=lambda p: p[1]), min(people, key=lambda p: p[0]))
people.sort(key=lambda p: p[0], reverse=True)
print(people)
print(list(map(lambda p: p[0].upper(), people)))
