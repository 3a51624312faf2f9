print("tab\tnew\\nline", 'single \'q\'', "double \"q\"", "\x41\u00e9\U0001F600" == "Aé😀")
print(r"raw \n stays", len(r"\n"), len("\n"), "\101\102", "a\
b")
print("""triple
quoted""", '''also "triple"''')
print(repr("\x00\x01"), repr("é"), repr("😀"), repr("\u200b"), repr("\\"))
print(b"\x00\xff\n" + b"ab", rb"\x00", len(b"\x00"))
print("%r" % "it's", "%r" % 'say "x"', repr("both ' and \""))
