x = f'''first {a}
second {b}
  third {c:>{w}}'''
y = (f'{p}'
     f'''{q}
{r}''')
z = (f'UTC{sign}{hours:02d}:{minutes:02d}'
     f'.{micro:06d}')
w = (f"<{a}.{b} at {id(c):#x}:"
     f" value={d!r:>{e}x}>")
