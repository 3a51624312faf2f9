package modules

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// Translation of Python's regular-expression syntax to RE2's (Go's
// regexp/syntax, Perl flags). docs/pvm-re.md lists what differs.

// Python's re flag values (re.RegexFlag).
const (
	reFlagTemplate   = 1
	reFlagIgnoreCase = 2
	reFlagLocale     = 4
	reFlagMultiline  = 8
	reFlagDotAll     = 16
	reFlagUnicode    = 32
	reFlagVerbose    = 64
	reFlagDebug      = 128
	reFlagASCII      = 256
)

// reNoBacktrack ends the message of every construct RE2 cannot run.
const reNoBacktrack = "not supported by the PVM's re (RE2 engine, no backtracking)"

// reSyntaxError is a pattern error: re.error(msg, pattern, pos).
type reSyntaxError struct {
	msg string
	pos int // code-point index into the pattern, -1 if unknown
}

func (e *reSyntaxError) Error() string {
	if e.pos < 0 {
		return e.msg
	}
	return fmt.Sprintf("%s at position %d", e.msg, e.pos)
}

// reTranslator holds the state of one translation.
type reTranslator struct {
	src     []rune
	i       int
	out     strings.Builder
	flags   int
	isBytes bool
	open    []int // positions of unclosed '('
	saved   []int // the flags before each unclosed '(', restored at its ')'
	groups  int
	names   map[string]int
	// canRepeat is set after an atom a quantifier may follow; lastQuant
	// after a quantifier (a second one is "multiple repeat").
	canRepeat, lastQuant bool
}

func (t *reTranslator) fail(msg string, pos int) error { return &reSyntaxError{msg: msg, pos: pos} }

func (t *reTranslator) peek(k int) rune {
	if t.i+k < len(t.src) {
		return t.src[t.i+k]
	}
	return -1
}

func isOctal(r rune) bool { return r >= '0' && r <= '7' }

func isHex(r rune) bool {
	return (r >= '0' && r <= '9') || (r >= 'a' && r <= 'f') || (r >= 'A' && r <= 'F')
}

func isASCIILetter(r rune) bool { return (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') }

// reFlagLetter maps an inline flag letter to its value.
func reFlagLetter(r rune) int {
	switch r {
	case 'a':
		return reFlagASCII
	case 'i':
		return reFlagIgnoreCase
	case 'L':
		return reFlagLocale
	case 'm':
		return reFlagMultiline
	case 's':
		return reFlagDotAll
	case 'u':
		return reFlagUnicode
	case 'x':
		return reFlagVerbose
	}
	return 0
}

// translateRegex converts a Python pattern to RE2 syntax. It returns the RE2
// pattern (with the flags as a leading (?ims) group), the flags in effect
// (argument flags plus leading inline flags), the group count and names.
func translateRegex(pattern string, flags int, isBytes bool) (string, int, int, map[string]int, error) {
	t := &reTranslator{src: []rune(pattern), flags: flags, isBytes: isBytes, names: map[string]int{}}
	if isBytes {
		for i, r := range t.src {
			if r >= 0x80 {
				return "", 0, 0, nil, t.fail("PVM: bytes patterns must be ASCII", i)
			}
		}
		if flags&reFlagUnicode != 0 {
			return "", 0, 0, nil, &reSyntaxError{msg: "cannot use UNICODE flag with a bytes pattern", pos: -1}
		}
	}
	if err := t.globalFlags(); err != nil {
		return "", 0, 0, nil, err
	}
	if t.flags&reFlagLocale != 0 {
		return "", 0, 0, nil, &reSyntaxError{msg: "PVM: the LOCALE flag is not supported", pos: -1}
	}
	if t.flags&reFlagUnicode != 0 && t.flags&reFlagASCII != 0 {
		return "", 0, 0, nil, &reSyntaxError{msg: "ASCII and UNICODE flags are incompatible", pos: -1}
	}
	if isBytes {
		t.flags |= reFlagASCII
	} else if t.flags&reFlagASCII == 0 {
		t.flags |= reFlagUnicode
	}
	if err := t.run(); err != nil {
		return "", 0, 0, nil, err
	}
	var prefix string
	for _, f := range []struct {
		bit    int
		letter string
	}{{reFlagIgnoreCase, "i"}, {reFlagMultiline, "m"}, {reFlagDotAll, "s"}} {
		if t.flags&f.bit != 0 {
			prefix += f.letter
		}
	}
	body := t.out.String()
	if prefix != "" {
		body = "(?" + prefix + ")" + body
	}
	pyFlags := t.flags
	if isBytes {
		pyFlags &^= reFlagASCII
		pyFlags |= flags & reFlagASCII
	}
	return body, pyFlags, t.groups, t.names, nil
}

// globalFlags consumes the inline flag groups at the start of the pattern,
// such as (?i) or (?x); Python 3.11 allows them only there.
func (t *reTranslator) globalFlags() error {
	for t.peek(0) == '(' && t.peek(1) == '?' {
		j := t.i + 2
		f := 0
		for j < len(t.src) && reFlagLetter(t.src[j]) != 0 {
			f |= reFlagLetter(t.src[j])
			j++
		}
		if j == t.i+2 || j >= len(t.src) || t.src[j] != ')' {
			return nil
		}
		t.flags |= f
		t.i = j + 1
	}
	return nil
}

func (t *reTranslator) verbose() bool { return t.flags&reFlagVerbose != 0 }

func (t *reTranslator) ascii() bool { return t.flags&reFlagASCII != 0 }

func (t *reTranslator) run() error {
	for t.i < len(t.src) {
		r := t.src[t.i]
		if t.verbose() {
			if r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\v' || r == '\f' {
				t.i++
				continue
			}
			if r == '#' {
				for t.i < len(t.src) && t.src[t.i] != '\n' {
					t.i++
				}
				continue
			}
		}
		var err error
		switch r {
		case '\\':
			err = t.escape()
		case '[':
			err = t.class()
		case '(':
			err = t.group()
		case ')':
			if len(t.open) == 0 {
				return t.fail("unbalanced parenthesis", t.i)
			}
			t.open = t.open[:len(t.open)-1]
			t.flags = t.saved[len(t.saved)-1]
			t.saved = t.saved[:len(t.saved)-1]
			t.out.WriteByte(')')
			t.i++
			t.atom()
		case '*', '+', '?':
			err = t.quantifier(string(r), t.i, t.i+1)
		case '{':
			err = t.brace()
		case '|':
			t.out.WriteByte('|')
			t.i++
			t.canRepeat, t.lastQuant = false, false
		case '^', '$':
			t.out.WriteRune(r)
			t.i++
			t.canRepeat, t.lastQuant = false, false
		case '.':
			t.out.WriteByte('.')
			t.i++
			t.atom()
		default:
			t.literal(r)
			t.i++
		}
		if err != nil {
			return err
		}
	}
	if len(t.open) > 0 {
		return t.fail("missing ), unterminated subpattern", t.open[len(t.open)-1])
	}
	return nil
}

func (t *reTranslator) atom() { t.canRepeat, t.lastQuant = true, false }

func (t *reTranslator) literal(r rune) {
	t.out.WriteString(quoteRune(r))
	t.atom()
}

// quoteRune writes r so RE2 reads it as itself, in or out of a class.
func quoteRune(r rune) string {
	switch {
	case r < 0x20 || r == 0x7f || (r >= 0x80 && !unicode.IsPrint(r)):
		return `\x{` + strconv.FormatInt(int64(r), 16) + `}`
	case strings.ContainsRune(`\.+*?()|[]{}^$-&~#`, r):
		return `\` + string(r)
	}
	return string(r)
}

// quantifier emits a repetition q whose text spans [start, end) of the
// pattern, then a lazy '?' if present; a possessive '+' is refused.
func (t *reTranslator) quantifier(q string, start, end int) error {
	if t.lastQuant {
		return t.fail("multiple repeat", start)
	}
	if !t.canRepeat {
		return t.fail("nothing to repeat", start)
	}
	t.out.WriteString(q)
	t.i = end
	switch t.peek(0) {
	case '?':
		t.out.WriteByte('?')
		t.i++
	case '+':
		return t.fail("possessive quantifiers are "+reNoBacktrack, t.i)
	}
	t.canRepeat, t.lastQuant = false, true
	return nil
}

// brace handles '{': a repetition {m}, {m,}, {,n}, {m,n} or a literal.
func (t *reTranslator) brace() error {
	start := t.i
	j := t.i + 1
	readInt := func() (string, bool) {
		k := j
		for j < len(t.src) && t.src[j] >= '0' && t.src[j] <= '9' {
			j++
		}
		return string(t.src[k:j]), j > k
	}
	lo, hasLo := readInt()
	hi, hasHi, comma := lo, hasLo, false
	if j < len(t.src) && t.src[j] == ',' {
		comma = true
		j++
		hi, hasHi = readInt()
	}
	if j >= len(t.src) || t.src[j] != '}' || (!hasLo && !comma) {
		t.literal('{')
		t.i++
		return nil
	}
	if !hasLo {
		lo = "0"
	}
	const maxRepeat = 1000
	l, err1 := strconv.Atoi(lo)
	h, err2 := strconv.Atoi(hi)
	if err1 != nil || l > maxRepeat || (hasHi && (err2 != nil || h > maxRepeat)) {
		return t.fail(fmt.Sprintf("PVM: repeat counts above %d are not supported", maxRepeat), start)
	}
	if hasHi && comma && h < l {
		return t.fail("min repeat greater than max repeat", start+1)
	}
	q := "{" + lo
	switch {
	case !comma:
	case hasHi:
		q += "," + hi
	default:
		q += ","
	}
	return t.quantifier(q+"}", start, j+1)
}

// group handles '(' and the (?...) extensions.
func (t *reTranslator) group() error {
	start := t.i
	if t.peek(1) != '?' {
		t.groups++
		t.push(start)
		t.out.WriteByte('(')
		t.i++
		t.canRepeat, t.lastQuant = false, false
		return nil
	}
	t.i += 2
	c := t.peek(0)
	switch {
	case c == ':':
		t.out.WriteString("(?:")
		t.i++
	case c == 'P' && t.peek(1) == '<':
		t.i += 2
		nameStart := t.i
		for t.i < len(t.src) && t.src[t.i] != '>' {
			t.i++
		}
		if t.i >= len(t.src) {
			return t.fail("missing >, unterminated name", nameStart)
		}
		name := string(t.src[nameStart:t.i])
		if name == "" {
			return t.fail("missing group name", nameStart)
		}
		if !isIdentifier(name) {
			return t.fail(fmt.Sprintf("bad character in group name '%s'", name), nameStart)
		}
		t.groups++
		if prev, dup := t.names[name]; dup {
			return t.fail(fmt.Sprintf("redefinition of group name '%s' as group %d; was group %d", name, t.groups, prev), nameStart)
		}
		t.names[name] = t.groups
		t.out.WriteString("(?P<" + name + ">")
		t.i++
	case c == 'P' && t.peek(1) == '=':
		return t.fail("backreferences are "+reNoBacktrack, start)
	case c == 'P':
		return t.fail("unknown extension ?P"+string(t.peek(1)), start+1)
	case c == '=':
		return t.fail("lookahead is "+reNoBacktrack, start)
	case c == '!':
		return t.fail("negative lookahead is "+reNoBacktrack, start)
	case c == '<' && t.peek(1) == '=':
		return t.fail("lookbehind is "+reNoBacktrack, start)
	case c == '<' && t.peek(1) == '!':
		return t.fail("negative lookbehind is "+reNoBacktrack, start)
	case c == '<':
		return t.fail("unknown extension ?<"+string(t.peek(1)), start+1)
	case c == '#':
		for t.i < len(t.src) && t.src[t.i] != ')' {
			t.i++
		}
		if t.i >= len(t.src) {
			return t.fail("missing ), unterminated comment", start)
		}
		t.i++
		return nil
	case c == '(':
		return t.fail("conditional groups are "+reNoBacktrack, start)
	case c == '>':
		return t.fail("atomic groups are "+reNoBacktrack, start)
	case reFlagLetter(c) != 0 || c == '-':
		return t.scopedFlags(start)
	default:
		if c < 0 {
			return t.fail("unexpected end of pattern", t.i)
		}
		return t.fail("unknown extension ?"+string(c), start+1)
	}
	t.push(start)
	t.canRepeat, t.lastQuant = false, false
	return nil
}

// reTypeFlags are the flags that choose what \w, \d and \s mean:
// at most one holds, and a group that turns one on turns the others off.
const reTypeFlags = reFlagASCII | reFlagLocale | reFlagUnicode

// scopedFlags handles (?flags-flags:...) and a misplaced (?flags), with
// the checks and messages of CPython's sre_parse._parse_flags (a
// position there is just after the character read, less the error's
// offset). The group's i, m and s go to RE2 as its own scoped flags; a,
// u and x change how the translator writes the group's body (t.flags,
// restored at its ')').
func (t *reTranslator) scopedFlags(start int) error {
	var add, del int
	isAlpha := func(r rune) bool { return unicode.IsLetter(r) }
	c := t.peek(0)
	if c != '-' {
		for {
			f := reFlagLetter(c)
			if !t.isBytes && c == 'L' {
				return t.fail("bad inline flags: cannot use 'L' flag with a str pattern", t.i+1)
			}
			if t.isBytes && c == 'u' {
				return t.fail("bad inline flags: cannot use 'u' flag with a bytes pattern", t.i+1)
			}
			add |= f
			if f&reTypeFlags != 0 && add&reTypeFlags != f {
				return t.fail("bad inline flags: flags 'a', 'u' and 'L' are incompatible", t.i+1)
			}
			t.i++
			c = t.peek(0)
			if c < 0 {
				return t.fail("missing -, : or )", t.i)
			}
			if c == ')' || c == '-' || c == ':' {
				break
			}
			if reFlagLetter(c) == 0 {
				if isAlpha(c) {
					return t.fail("unknown flag", t.i)
				}
				return t.fail("missing -, : or )", t.i)
			}
		}
	}
	if c == ')' {
		return t.fail("global flags not at the start of the expression", start)
	}
	if c == '-' {
		t.i++
		c = t.peek(0)
		if c < 0 {
			return t.fail("missing flag", t.i)
		}
		if reFlagLetter(c) == 0 {
			if isAlpha(c) {
				return t.fail("unknown flag", t.i)
			}
			return t.fail("missing flag", t.i)
		}
		for {
			f := reFlagLetter(c)
			if f&reTypeFlags != 0 {
				return t.fail("bad inline flags: cannot turn off flags 'a', 'u' and 'L'", t.i+1)
			}
			del |= f
			t.i++
			c = t.peek(0)
			if c < 0 {
				return t.fail("missing :", t.i)
			}
			if c == ':' {
				break
			}
			if reFlagLetter(c) == 0 {
				if isAlpha(c) {
					return t.fail("unknown flag", t.i)
				}
				return t.fail("missing :", t.i)
			}
		}
	}
	if add&del != 0 {
		return t.fail("bad inline flags: flag turned on and off", t.i)
	}
	t.i++ // the ':'
	g := "(?" + reRE2Flags(add)
	if off := reRE2Flags(del); off != "" {
		g += "-" + off
	}
	t.out.WriteString(g + ":")
	t.push(start)
	if add&reTypeFlags != 0 && add&reFlagUnicode == 0 {
		// (?a:...) is ASCII also under re.UNICODE; (?u:...) under
		// re.ASCII stays ASCII, as CPython 3.11 matches it.
		t.flags &^= reTypeFlags
	}
	t.flags = (t.flags | add) &^ del
	t.canRepeat, t.lastQuant = false, false
	return nil
}

// reRE2Flags spells the flags RE2 scopes itself (i, m, s).
func reRE2Flags(f int) string {
	var b strings.Builder
	for _, x := range []struct {
		bit    int
		letter byte
	}{{reFlagIgnoreCase, 'i'}, {reFlagMultiline, 'm'}, {reFlagDotAll, 's'}} {
		if f&x.bit != 0 {
			b.WriteByte(x.letter)
		}
	}
	return b.String()
}

// push opens a group that starts at start, keeping the flags its ')'
// restores.
func (t *reTranslator) push(start int) {
	t.open = append(t.open, start)
	t.saved = append(t.saved, t.flags)
}

func isIdentifier(s string) bool {
	for i, r := range s {
		if !(r == '_' || unicode.IsLetter(r) || (i > 0 && unicode.IsDigit(r))) {
			return false
		}
	}
	return s != ""
}

// category returns the RE2 text of \d \D \w \W \s \S, in or out of a class.
func (t *reTranslator) category(c rune, inClass bool) string {
	if t.ascii() {
		switch c {
		case 's':
			if inClass {
				return `\t\n\v\f\r `
			}
			return `[\t\n\v\f\r ]`
		case 'S':
			if inClass {
				return `\S`
			}
			return `[^\t\n\v\f\r ]`
		}
		return `\` + string(c)
	}
	const word, space = `\p{L}\p{N}_`, `\t\n\v\f\r\x{1c}-\x{1f}\x{85}\p{Z}`
	switch c {
	case 'd':
		return `\p{Nd}`
	case 'D':
		return `\P{Nd}`
	case 'w':
		if inClass {
			return word
		}
		return "[" + word + "]"
	case 'W':
		if inClass {
			return `\W` // RE2 cannot nest a negated class: ASCII \W (docs/pvm-re.md)
		}
		return "[^" + word + "]"
	case 's':
		if inClass {
			return space
		}
		return "[" + space + "]"
	}
	if inClass {
		return `\S`
	}
	return "[^" + space + "]"
}

// numericEscape reads the code point of \x, \u, \U and octal escapes
// starting at the escape letter src[i+1]; ok is false if the letter is none
// of those.
func (t *reTranslator) numericEscape(inClass bool) (rune, bool, error) {
	start := t.i
	c := t.peek(1)
	hexN := 0
	switch c {
	case 'x':
		hexN = 2
	case 'u':
		hexN = 4
	case 'U':
		hexN = 8
	}
	if hexN > 0 {
		if c != 'x' && t.isBytes {
			return 0, false, t.fail(`bad escape \`+string(c), start)
		}
		j := t.i + 2
		for j < len(t.src) && j < t.i+2+hexN && isHex(t.src[j]) {
			j++
		}
		if j-(t.i+2) != hexN {
			return 0, false, t.fail(`incomplete escape \`+string(t.src[t.i+1:j]), start)
		}
		v, _ := strconv.ParseUint(string(t.src[t.i+2:j]), 16, 32)
		if v > unicode.MaxRune {
			return 0, false, t.fail(`bad escape \`+string(t.src[t.i+1:j]), start)
		}
		t.i = j
		return rune(v), true, nil
	}
	if c == '0' || (inClass && isOctal(c)) || (c >= '1' && c <= '3' && isOctal(t.peek(2)) && isOctal(t.peek(3))) {
		j := t.i + 1
		for j < len(t.src) && j < t.i+4 && isOctal(t.src[j]) {
			j++
		}
		v, _ := strconv.ParseUint(string(t.src[t.i+1:j]), 8, 32)
		if v > 0o377 {
			return 0, false, t.fail(`octal escape value \`+string(t.src[t.i+1:j])+` outside of range 0-0o377`, start)
		}
		t.i = j
		return rune(v), true, nil
	}
	return 0, false, nil
}

func (t *reTranslator) escape() error {
	start := t.i
	c := t.peek(1)
	if c < 0 {
		return t.fail("bad escape (end of pattern)", start)
	}
	if r, ok, err := t.numericEscape(false); err != nil || ok {
		if ok {
			t.out.WriteString(quoteRune(r))
			t.atom()
		}
		return err
	}
	t.i += 2
	switch c {
	case 'd', 'D', 'w', 'W', 's', 'S':
		t.out.WriteString(t.category(c, false))
		t.atom()
	case 'b', 'B':
		t.out.WriteString(`\` + string(c))
		t.canRepeat, t.lastQuant = false, false
	case 'A':
		t.out.WriteString(`\A`)
		t.canRepeat, t.lastQuant = false, false
	case 'Z':
		t.out.WriteString(`\z`)
		t.canRepeat, t.lastQuant = false, false
	case 'n', 't', 'r', 'f', 'v', 'a':
		t.out.WriteString(`\` + string(c))
		t.atom()
	case 'N':
		return t.fail(`PVM: \N{...} escapes are not supported`, start)
	default:
		switch {
		case c >= '1' && c <= '9':
			return t.fail("backreferences are "+reNoBacktrack, start)
		case isASCIILetter(c) || (c >= '0' && c <= '9'):
			return t.fail(`bad escape \`+string(c), start)
		}
		t.literal(c)
	}
	return nil
}

// class translates a character set [...].
func (t *reTranslator) class() error {
	start := t.i
	t.i++
	t.out.WriteByte('[')
	if t.peek(0) == '^' {
		t.out.WriteByte('^')
		t.i++
	}
	first := true
	for {
		if t.i >= len(t.src) {
			return t.fail("unterminated character set", start)
		}
		r := t.src[t.i]
		switch {
		case r == ']' && !first:
			t.out.WriteByte(']')
			t.i++
			t.atom()
			return nil
		case r == '\\':
			if err := t.classEscape(); err != nil {
				return err
			}
		case r == '-':
			t.out.WriteByte('-')
			t.i++
		default:
			t.out.WriteString(quoteRune(r))
			t.i++
		}
		first = false
	}
}

func (t *reTranslator) classEscape() error {
	start := t.i
	c := t.peek(1)
	if c < 0 {
		return t.fail("unterminated character set", start)
	}
	if r, ok, err := t.numericEscape(true); err != nil || ok {
		if ok {
			t.out.WriteString(quoteRune(r))
		}
		return err
	}
	t.i += 2
	switch c {
	case 'd', 'D', 'w', 'W', 's', 'S':
		t.out.WriteString(t.category(c, true))
	case 'b':
		t.out.WriteString(`\x{8}`)
	case 'n', 't', 'r', 'f', 'v', 'a':
		t.out.WriteString(`\` + string(c))
	case 'N':
		return t.fail(`PVM: \N{...} escapes are not supported`, start)
	default:
		if isASCIILetter(c) || (c >= '0' && c <= '9') {
			return t.fail(`bad escape \`+string(c), start)
		}
		t.out.WriteString(quoteRune(c))
	}
	return nil
}
