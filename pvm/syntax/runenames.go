package syntax

import (
	"strconv"
	"strings"
	"sync"

	"golang.org/x/text/unicode/runenames"
)

// runeByName maps every named Unicode character's name to the character,
// for \N{...} escapes. Built once per process on first use (most programs
// never need it) and then only read, so concurrent compiles can share it.
var (
	runeByNameOnce sync.Once
	runeByName     map[string]rune
)

// lookupRuneName resolves the name in a \N{name} escape as Python does
// (case-insensitively), from the Unicode Character Database names of
// golang.org/x/text; CJK unified ideographs are named by code point. The
// table is built on first use.
func lookupRuneName(name string) (rune, bool) {
	name = strings.ToUpper(name)
	if hex, ok := strings.CutPrefix(name, "CJK UNIFIED IDEOGRAPH-"); ok && (len(hex) == 4 || len(hex) == 5) {
		v, err := strconv.ParseUint(hex, 16, 32)
		if err == nil && isCJKUnified(rune(v)) {
			return rune(v), true
		}
		return 0, false
	}
	runeByNameOnce.Do(func() {
		runeByName = make(map[string]rune, 40000)
		for r := rune(0); r <= 0x10ffff; r++ {
			if n := runenames.Name(r); n != "" && n[0] != '<' {
				runeByName[n] = r
			}
		}
	})
	r, ok := runeByName[name]
	return r, ok
}

// isCJKUnified reports whether r is in one of the CJK Unified Ideographs
// blocks, whose characters have no names in the table but are named
// "CJK UNIFIED IDEOGRAPH-<hex>" by Python.
func isCJKUnified(r rune) bool {
	for _, rg := range [][2]rune{{0x3400, 0x4DBF}, {0x4E00, 0x9FFF}, {0x20000, 0x2A6DF}, {0x2A700, 0x2B739},
		{0x2B740, 0x2B81D}, {0x2B820, 0x2CEA1}, {0x2CEB0, 0x2EBE0}, {0x30000, 0x3134A}} {
		if r >= rg[0] && r <= rg[1] {
			return true
		}
	}
	return false
}
