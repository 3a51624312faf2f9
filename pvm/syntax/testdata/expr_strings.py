'single'
"double"
'''triple
line'''
"""doc"""
'it\'s'
"quote\"d"
'tab\there'
'a' 'b' "c"
b'bytes'
B"BYTES"
r'raw\n'
R'\d+'
br'\x00'
rb'raw'
u'unicode'
'\x41\u00e9\U0001F600'
'\101\0'
b'\xff\x00\n'
'café ☃'
"mixed 'quotes'"
'both \' and "'
