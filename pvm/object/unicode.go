package object

import (
	"sort"
	"strings"
	"unicode/utf8"
)

//go:generate sh -c "python3 gen_unicode.py > unicode_tables.go"

// Case mappings and character classes of str, as CPython 3.11 defines them
// (Objects/unicodeobject.c do_upper, do_lower, do_title, ...; full case
// mappings from SpecialCasing.txt, so "ß".upper() is "SS"). They read only
// the generated tables in unicode_tables.go (Unicode 14.0.0, taken from
// CPython 3.11 itself), never Go's unicode package: its tables follow the
// Go release, and two nodes built with different releases must still agree.

// runeRange is an inclusive range of code points.
type runeRange struct{ lo, hi rune }

// caseEntry holds a code point's full case mappings; "" means the code
// point maps to itself.
type caseEntry struct {
	r                         rune
	upper, lower, title, fold string
}

func inRanges(t []runeRange, r rune) bool {
	i := sort.Search(len(t), func(i int) bool { return t[i].hi >= r })
	return i < len(t) && t[i].lo <= r
}

func caseOf(r rune) *caseEntry {
	i := sort.Search(len(caseTable), func(i int) bool { return caseTable[i].r >= r })
	if i < len(caseTable) && caseTable[i].r == r {
		return &caseTable[i]
	}
	return nil
}

func isUpperRune(r rune) bool { return inRanges(upperRanges, r) }
func isLowerRune(r rune) bool { return inRanges(lowerRanges, r) }
func isTitleRune(r rune) bool { return inRanges(titleRanges, r) }
func isCasedRune(r rune) bool { return inRanges(casedRanges, r) }

// IsAlphaRune is str.isalpha of one character.
func IsAlphaRune(r rune) bool { return inRanges(alphaRanges, r) }

// IsDecimalRune is str.isdecimal of one character (category Nd).
func IsDecimalRune(r rune) bool { return inRanges(decimalRanges, r) }
func isDigitRune(r rune) bool   { return inRanges(digitRanges, r) }
func isNumericRune(r rune) bool { return inRanges(numericRanges, r) }
func isAlnumRune(r rune) bool {
	return IsAlphaRune(r) || IsDecimalRune(r) || isDigitRune(r) || isNumericRune(r)
}

func writeMapped(b *strings.Builder, r rune, m string) {
	if m == "" {
		b.WriteRune(r)
	} else {
		b.WriteString(m)
	}
}

func writeUpper(b *strings.Builder, r rune) {
	if e := caseOf(r); e != nil {
		writeMapped(b, r, e.upper)
		return
	}
	b.WriteRune(r)
}

func writeTitle(b *strings.Builder, r rune) {
	if e := caseOf(r); e != nil {
		writeMapped(b, r, e.title)
		return
	}
	b.WriteRune(r)
}

// writeLower lowercases rs[i], with the Final_Sigma rule for U+03A3
// (CPython's lower_ucs4 and handle_capital_sigma).
func writeLower(b *strings.Builder, rs []rune, i int) {
	r := rs[i]
	if r == 0x3A3 {
		b.WriteRune(finalSigma(rs, i))
		return
	}
	if e := caseOf(r); e != nil {
		writeMapped(b, r, e.lower)
		return
	}
	b.WriteRune(r)
}

// finalSigma is ς when rs[i] ends a word (a cased letter before it and
// none after it, skipping case-ignorable characters), else σ.
func finalSigma(rs []rune, i int) rune {
	j := i - 1
	for j >= 0 && inRanges(caseIgnorableRanges, rs[j]) {
		j--
	}
	final := j >= 0 && isCasedRune(rs[j])
	if final {
		j = i + 1
		for j < len(rs) && inRanges(caseIgnorableRanges, rs[j]) {
			j++
		}
		final = j == len(rs) || !isCasedRune(rs[j])
	}
	if final {
		return 0x3C2
	}
	return 0x3C3
}

func asciiOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func strUpper(s string) string {
	if asciiOnly(s) {
		return strings.ToUpper(s)
	}
	var b strings.Builder
	for _, r := range s {
		writeUpper(&b, r)
	}
	return b.String()
}

func strLower(s string) string {
	if asciiOnly(s) {
		return strings.ToLower(s)
	}
	rs := []rune(s)
	var b strings.Builder
	for i := range rs {
		writeLower(&b, rs, i)
	}
	return b.String()
}

func strCasefold(s string) string {
	if asciiOnly(s) {
		return strings.ToLower(s)
	}
	var b strings.Builder
	for _, r := range s {
		if e := caseOf(r); e != nil {
			writeMapped(&b, r, e.fold)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func strSwapcase(s string) string {
	rs := []rune(s)
	var b strings.Builder
	for i, r := range rs {
		switch {
		case isUpperRune(r):
			writeLower(&b, rs, i)
		case isLowerRune(r):
			writeUpper(&b, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// strCapitalize titlecases the first character and lowercases the rest
// (Python 3.8+).
func strCapitalize(s string) string {
	rs := []rune(s)
	var b strings.Builder
	for i, r := range rs {
		if i == 0 {
			writeTitle(&b, r)
		} else {
			writeLower(&b, rs, i)
		}
	}
	return b.String()
}

func strTitle(s string) string {
	rs := []rune(s)
	var b strings.Builder
	prevCased := false
	for i, r := range rs {
		if prevCased {
			writeLower(&b, rs, i)
		} else {
			writeTitle(&b, r)
		}
		prevCased = isCasedRune(r)
	}
	return b.String()
}

func strIsUpper(s string) bool {
	cased := false
	for _, r := range s {
		if isLowerRune(r) || isTitleRune(r) {
			return false
		}
		cased = cased || isUpperRune(r)
	}
	return cased
}

func strIsLower(s string) bool {
	cased := false
	for _, r := range s {
		if isUpperRune(r) || isTitleRune(r) {
			return false
		}
		cased = cased || isLowerRune(r)
	}
	return cased
}

func strIsTitle(s string) bool {
	cased, prevCased := false, false
	for _, r := range s {
		switch {
		case isUpperRune(r) || isTitleRune(r):
			if prevCased {
				return false
			}
			prevCased, cased = true, true
		case isLowerRune(r):
			if !prevCased {
				return false
			}
			prevCased, cased = true, true
		default:
			prevCased = false
		}
	}
	return cased
}

// asciiDecimal maps the decimal digits of any script to ASCII and Unicode
// whitespace to ' ' before int() or float() parse a str (CPython's
// _PyUnicode_TransformDecimalAndSpaceToASCII); other characters pass
// through and fail the parse.
func asciiDecimal(s string) string {
	if asciiOnly(s) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < utf8.RuneSelf:
			b.WriteRune(r)
		case isPySpace(r):
			b.WriteByte(' ')
		case IsDecimalRune(r):
			i := sort.Search(len(decimalRanges), func(i int) bool { return decimalRanges[i].hi >= r })
			b.WriteByte(byte('0' + (r-decimalRanges[i].lo)%10))
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
