import string
from string import Template, capwords
print(string.ascii_letters, string.digits, string.hexdigits, string.octdigits)
print(repr(string.punctuation), repr(string.whitespace), repr(string.printable))
print(capwords("  hello   wORLD  again "), capwords("a-b-c", "-"), capwords(""))
t = Template("$who likes ${what}; costs $$5 $who")
print(t.substitute(who="tim", what="kung pao"))
print(t.substitute({"who": "a", "what": "b"}, who="kw"))
print(t.safe_substitute(who="x"))
print(t.get_identifiers(), t.is_valid(), Template("$").is_valid())
try:
    Template("line1\n  $ 5").substitute()
except ValueError as e:
    print("ValueError", e)
try:
    t.substitute(who="x")
except KeyError as e:
    print("KeyError", e)
class P(Template):
    delimiter = "%"
print(P("%a and %{b} %%").substitute(a=1, b=2))
