"""Common string constants, capwords and Template (CPython 3.11's string
module without Formatter).

Written for the PVM: the constants are CPython's, capwords and Template
behave as CPython 3.11's do, including their error messages.
string.Formatter is not provided.
"""

__all__ = ["ascii_letters", "ascii_lowercase", "ascii_uppercase", "capwords",
           "digits", "hexdigits", "octdigits", "printable", "punctuation",
           "whitespace", "Template"]

import re as _re

whitespace = " \t\n\r\v\f"
ascii_lowercase = "abcdefghijklmnopqrstuvwxyz"
ascii_uppercase = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
ascii_letters = ascii_lowercase + ascii_uppercase
digits = "0123456789"
hexdigits = digits + "abcdef" + "ABCDEF"
octdigits = "01234567"
punctuation = r"""!"#$%&'()*+,-./:;<=>?@[\]^_`{|}~"""
printable = digits + ascii_letters + punctuation + whitespace


def capwords(s, sep=None):
    """Split s by sep, capitalize each word, join them with sep (a single
    space when sep is None, as str.split's runs of whitespace collapse)."""
    return (sep or " ").join(word.capitalize() for word in s.split(sep))


_sentinel_dict = {}


class Template:
    """A string with $-placeholders (PEP 292)."""

    delimiter = "$"
    # CPython's pattern scopes the ASCII flag to the identifier,
    # (?a:[_a-z][_a-z0-9]*); the PVM's re has no scoped flags, so the
    # compiled pattern spells the ASCII letters out instead (below).
    idpattern = r"(?a:[_a-z][_a-z0-9]*)"
    braceidpattern = None
    flags = _re.IGNORECASE

    def __init_subclass__(cls):
        super().__init_subclass__()
        if "pattern" in cls.__dict__:
            pattern = cls.pattern
        else:
            delim = _re.escape(cls.delimiter)
            id = cls.idpattern
            if id == Template.idpattern:
                id = r"[_a-zA-Z][_a-zA-Z0-9]*"
            bid = cls.braceidpattern or id
            pattern = (
                delim + r"(?:(?P<escaped>" + delim + r")|(?P<named>" + id
                + r")|{(?P<braced>" + bid + r")}|(?P<invalid>))"
            )
        cls.pattern = _re.compile(pattern, cls.flags | _re.VERBOSE)

    def __init__(self, template):
        self.template = template

    def _invalid(self, mo):
        i = mo.start("invalid")
        lines = self.template[:i].splitlines(keepends=True)
        if not lines:
            colno = 1
            lineno = 1
        else:
            colno = i - len("".join(lines[:-1]))
            lineno = len(lines)
        raise ValueError("Invalid placeholder in string: line %d, col %d" % (lineno, colno))

    def substitute(self, mapping=_sentinel_dict, /, **kws):
        mapping = _mapping(mapping, kws)

        def convert(mo):
            named = mo.group("named") or mo.group("braced")
            if named is not None:
                return str(mapping[named])
            if mo.group("escaped") is not None:
                return self.delimiter
            if mo.group("invalid") is not None:
                self._invalid(mo)
            raise ValueError("Unrecognized named group in pattern", self.pattern)

        return self.pattern.sub(convert, self.template)

    def safe_substitute(self, mapping=_sentinel_dict, /, **kws):
        mapping = _mapping(mapping, kws)

        def convert(mo):
            named = mo.group("named") or mo.group("braced")
            if named is not None:
                try:
                    return str(mapping[named])
                except KeyError:
                    return mo.group()
            if mo.group("escaped") is not None:
                return self.delimiter
            if mo.group("invalid") is not None:
                return mo.group()
            raise ValueError("Unrecognized named group in pattern", self.pattern)

        return self.pattern.sub(convert, self.template)

    def is_valid(self):
        for mo in self.pattern.finditer(self.template):
            if mo.group("invalid") is not None:
                return False
            if (mo.group("named") is None and mo.group("braced") is None
                    and mo.group("escaped") is None):
                raise ValueError("Unrecognized named group in pattern", self.pattern)
        return True

    def get_identifiers(self):
        ids = []
        for mo in self.pattern.finditer(self.template):
            named = mo.group("named") or mo.group("braced")
            if named is not None and named not in ids:
                ids.append(named)
            elif (named is None and mo.group("invalid") is None
                    and mo.group("escaped") is None):
                raise ValueError("Unrecognized named group in pattern", self.pattern)
        return ids


def _mapping(mapping, kws):
    """The names a substitution reads: the mapping, the keyword
    arguments, or both with the keywords first."""
    if mapping is _sentinel_dict:
        return kws
    if kws:
        return _ChainMap(kws, mapping)
    return mapping


class _ChainMap:
    """The keyword arguments first, then the mapping (what substitute
    needs of collections.ChainMap)."""

    def __init__(self, first, second):
        self.first = first
        self.second = second

    def __getitem__(self, key):
        if key in self.first:
            return self.first[key]
        return self.second[key]


# Template's own pattern is built as a subclass's is.
Template.__init_subclass__()
