s = 'a' f'{b}' 'c'
t = f'{x}' f'{y}'
u = ('one '
     f'{two} '
     'three')
v = f'{a:{b}}' f'{c:>3}'
