# Full Unicode case mappings (SpecialCasing) and character classes as CPython
# 3.11 (Unicode 14.0.0) defines them.

words = ["ß", "straße", "ﬁre", "ﬃ", "İstanbul", "ΣΊΣΥΦΟΣ", "ΌΣΟΣ Σ", "ΑΣ.", "Σ", "aΣb", "ǅungla", "ǆ", "ǈ",
         "ŉ", "ΐ", "ᾳ", "ᾼ", "ﬀ", "Ǆ", "ʼn", "ς", "MASSE", "ǰ", "ẞ", "ΰ", "ᾈ", "hello world", "ÀÉÎõü",
         "ǅ", "ꭰ", "Ꭰ", "𐐀", "𐐨", "a'Σ", "A\u0301Σ", "i̇", "ı", "ſ", "K", "Å", "µ", "ﬆ", "և", "ﬓ"]
for w in words:
    print(repr(w), repr(w.upper()), repr(w.lower()), repr(w.title()), repr(w.casefold()),
          repr(w.capitalize()), repr(w.swapcase()))
    print("  ", w.isupper(), w.islower(), w.istitle(), w.isalpha())

for s in ["Hello World", "Hello world", "HELLO", "hello", "ǅungla", "Ǆ", "ǅ", "123", "A1", "a1", "", "Σς", "ᾼ"]:
    print(repr(s), s.isupper(), s.islower(), s.istitle())

digits = "0123456789²³¹¼½¾٠١٢३৪൫๖໗༨၉႐០᠑᥆᧐᪀᭐᮰᱀᱐꘠꣐꤀꧐꩐꯰０" \
    "①②⑴⒈⓵❶➀ⅠⅡⅫⅰↀ〇一二三四五六七八九十百千万億兆零壹贰𝟎𝟘𝟢𝟬𝟶𐒠𑁦"
for ch in digits:
    print(ch, hex(ord(ch)), ch.isdigit(), ch.isdecimal(), ch.isnumeric(), ch.isalnum(), ch.isalpha())
print("²".isdigit(), "²".isdecimal(), "½".isnumeric(), "½".isdigit(), "٣".isdecimal(), int("٣"))
print("ǅ".isalpha(), "ª".isalpha(), "ˆ".isalpha(), "̀".isalpha(), "中".isalpha(), "_".isalnum())
print(sorted({c.upper() for c in "aßﬁ"}), len("ß".upper()), "ß".upper().lower())
print("ΣΑΣ ΑΣ Σ ΑΣ' ΑΣ1".lower())
print("ABC".lower(), "abc".upper(), "aBc".swapcase(), "hello wORLD".title(), "hELLO".capitalize())
print("they're bill's friends".title())
print(int("١٢٣"), int("𝟏𝟐"), float("٣.٥"), int("\u3000４２\u2003"), int("٣", 16))
try:
    int("½")
except ValueError as e:
    print(e)
for s in ["abc", "_x", "1a", "a1", "é", "x·y", "ℕ", "a b", "", "𝔘𝔫𝔦", "a\u0301", "\u1e9e", "a\u200b", "tab\t", "\xa0", "\u2028"]:
    print(repr(s), s.isidentifier(), s.isprintable())
