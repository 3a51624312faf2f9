s = 'Hello, World'
print(s.lower().replace('world', 'there').split(', ')[::-1])
print('{} and {}'.format(1, 2), '%s-%d' % ('a', 3))
print(s[1:-1], s[::2], len(s))
t = '''\
line one
    line two
'''
