greeting = 'こんにちは'
emoji = '😀'
x = f'{greeting} → {emoji}'
d = {'é': 1}
print(d['é'], len(greeting))  # é
