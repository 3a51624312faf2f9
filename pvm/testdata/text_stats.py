text = """It was the best of times, it was the worst of times,
it was the age of wisdom, it was the age of foolishness"""
words = [w.strip(",.").lower() for w in text.split()]
freq = {}
for w in words:
    freq[w] = freq.get(w, 0) + 1
top = sorted(freq.items(), key=lambda kv: (-kv[1], kv[0]))[:5]
print(top)
print(len(words), len(freq), max(words, key=len), sum(len(w) for w in words) / len(words))
lines = text.splitlines()
print([len(l) for l in lines], [l.split()[0] for l in lines])
caps = " ".join(w.capitalize() for w in words[:6])
print(caps, caps.count("It"), caps.lower().startswith("it"))
print({c: text.count(c) for c in "aeiou"})
