x = f'''first {a}
second {b}
  third {c:>{w}}'''
y = (f'{p}'
     f'''{q}
{r}''')
