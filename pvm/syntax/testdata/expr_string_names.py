x = '\N{BULLET} \N{latin small letter e with acute}\N{CJK UNIFIED IDEOGRAPH-4E00}'
b = b'\N{x}'
x = f'{2}\N{GREEK CAPITAL LETTER DELTA}{3}'
