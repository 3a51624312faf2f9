s = "text"
print(s.upper())
s.nonexistent()
