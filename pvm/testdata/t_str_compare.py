words = ["apple", "Apple", "banana", "apple pie", "app", ""]
print(sorted(words), sorted(words, key=str.lower), min(words), max(words))
print("abc" < "abd" < "b", "Z" < "a", "10" < "9", "a" * 3 == "aaa", "é" > "z")
