package syntax

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cowboy-chain/cowboy/pvm/softfloat"
	"golang.org/x/text/unicode/norm"
)

// ErrorKind tells which SyntaxError subclass CPython would raise.
type ErrorKind uint8

// Error kinds, named after CPython's exception classes.
const (
	SyntaxErr      ErrorKind = iota // SyntaxError
	IndentationErr                  // IndentationError (a SyntaxError)
	TabErr                          // TabError (an IndentationError)
)

// String is the Python exception class name of the kind.
func (k ErrorKind) String() string {
	switch k {
	case IndentationErr:
		return "IndentationError"
	case TabErr:
		return "TabError"
	}
	return "SyntaxError"
}

// Error is a syntax error at a line. Msg is worded as CPython 3.11 words
// it where the parser knows how; Kind is the exception class.
type Error struct {
	Ln   int
	Msg  string
	Kind ErrorKind
}

// Error renders the error for Go callers; pvm/compile turns it into a
// Python SyntaxError of class Kind instead.
func (e *Error) Error() string { return fmt.Sprintf("line %d: %s", e.Ln, e.Msg) }

// Line is the 1-based line of the error.
func (e *Error) Line() int { return e.Ln }

// ExceptionName is the Python class of the error: SyntaxError,
// IndentationError or TabError.
func (e *Error) ExceptionName() string { return e.Kind.String() }

// tokKind is the kind of a token, the token types of CPython's tokenizer
// (Language Reference §2.1, §2.3–§2.6) that the parser tells apart.
// Keywords are tName tokens; the parser knows which names are keywords.
type tokKind uint8

const (
	tEOF tokKind = iota
	tName
	tNumber
	tString
	tOp
	// tNewline ends a logical line (§2.1.1); tIndent and tDedent
	// bracket an indented block (§2.1.8), as CPython's NEWLINE, INDENT
	// and DEDENT do.
	tNewline
	tIndent
	tDedent
)

// token is one token with its source span.
type token struct {
	kind tokKind
	val  string // name, operator, or raw string body
	// line and col are where the token starts, endLine and endCol where it
	// ends (exclusive); lines are 1-based, columns are 0-based UTF-8 byte
	// offsets in the line, as in CPython's ast.
	line, col       int
	endLine, endCol int
	num             any // int64, *big.Int or float64 for tNumber
	// Strings. An f-string's body is decoded by the parser instead
	// (fstringBody), field by field, since escapes apply only to its
	// literal parts.
	str     string // decoded value (not for f-strings)
	isBytes bool
	isF     bool
	isRaw   bool
	isU     bool   // a u'' literal: Constant.Kind "u" in CPython's ast
	text    string // the whole literal, prefix and quotes included
	bodyOff int    // offset of val in text
}

// MaxSourceNesting bounds bracket nesting in the tokenizer: as in CPython
// (MAXLEVEL), 200 nested brackets are accepted and the 201st is
// "too many nested parentheses".
const MaxSourceNesting = 200

// maxIndent is CPython's MAXINDENT: deeper indentation is an
// IndentationError ("too many levels of indentation").
const maxIndent = 100

// tokenize splits a whole source file into tokens, as CPython's tokenizer
// does (Language Reference §2.1). What it takes care of:
//
//   - Line structure: a NEWLINE ends each logical line; blank and
//     comment-only lines make no tokens (§2.1.7); inside brackets line
//     ends are not NEWLINEs (implicit joining, §2.1.6), and a backslash
//     before a line end joins lines (§2.1.5).
//   - Indentation (§2.1.8): the indentation of each logical line is
//     compared with a stack of open levels, giving INDENT when it is
//     deeper and one DEDENT per level closed; a level that matches no
//     open one is an IndentationError. Tabs count to the next multiple
//     of 8 and, separately, as one column: a line whose order against
//     the stack differs between the two counts depends on the width of a
//     tab, which is a TabError, as in CPython.
//   - Names are NFKC-normalized (§2.3, PEP 3131), numbers and strings
//     scanned by scanNumber and scanString, and operators matched
//     longest first (§2.5, §2.6).
//   - Brackets are matched as CPython's tokenizer matches them, for its
//     messages (unmatched, mismatched, never closed) and for its nesting
//     limit, MaxSourceNesting.
//
// At the end of input the last line gets its NEWLINE, every open block
// a DEDENT, and an EOF token closes the list. The source must be UTF-8
// (a byte order mark is skipped); coding declarations (§2.1.4) are not
// read.
func tokenize(src string) ([]token, error) {
	// The tokenizer is a pure function of the source bytes: every node that
	// compiles a contract gets the same tokens, the same errors and the same
	// line numbers, which is why no encoding declaration is honoured (a
	// declared Latin-1 file would decode differently from the UTF-8 every
	// node assumes).
	src = strings.TrimPrefix(src, "\ufeff") // a UTF-8 byte order mark
	// Invalid UTF-8 is reported at the line of its first bad byte,
	// with CPython's message less its "<file> on line N" (the line is
	// the error's own).
	if !utf8.ValidString(src) {
		bad := 0
		for bad < len(src) {
			r, size := utf8.DecodeRuneInString(src[bad:])
			if r == utf8.RuneError && size <= 1 {
				break
			}
			bad += size
		}
		return nil, &Error{Ln: 1 + strings.Count(src[:bad], "\n"),
			Msg: fmt.Sprintf("Non-UTF-8 code starting with '\\x%02x' in file, but no encoding declared; see https://peps.python.org/pep-0263/ for details", src[bad])}
	}
	var toks []token
	// The open indentation levels, innermost last, counted both ways.
	indents := []int{0}    // columns with tabs to multiples of 8
	altIndents := []int{0} // columns with tabs as one space, for TabError
	// line is the current 1-based line and lineStart the offset where
	// it begins (columns are offsets from it); depth counts open
	// brackets.
	line, i, lineStart := 1, 0, 0
	depth := 0
	type opener struct {
		ch        byte
		line, col int
	}
	var opens []opener // unclosed brackets, for CPython's messages
	atLineStart := true
	errAt := func(msg string) error { return &Error{Ln: line, Msg: msg} }
	newline := func(at int) { line++; lineStart = at }
	for {
		// Indentation is measured only at the start of a logical line outside
		// brackets: inside brackets leading whitespace is insignificant (implicit
		// line joining), as CPython's tokenizer ignores it while a bracket is
		// open (tok->level > 0).
		if atLineStart && depth == 0 {
			// Measure indentation; skip blank and comment-only lines.
			col, alt := 0, 0
			j := i
			for j < len(src) {
				switch src[j] {
				case ' ':
					col++
					alt++
				case '\t':
					col = (col/8 + 1) * 8
					alt++
				case '\f':
					// A form feed resets the count, as in CPython's
					// tokenizer (§2.1.8 leaves its effect undefined).
					col, alt = 0, 0
				default:
					goto measured
				}
				j++
			}
		measured:
			if j >= len(src) {
				i = j
				break
			}
			if src[j] == '#' || src[j] == '\n' || src[j] == '\r' {
				for j < len(src) && src[j] != '\n' {
					j++
				}
				if j < len(src) {
					j++
					newline(j)
				}
				i = j
				continue
			}
			// A backslash-newline in the indentation joins this line to
			// the next one, whose indentation is measured instead.
			if src[j] == '\\' && j+1 < len(src) && src[j+1] == '\n' {
				i = j + 2
				newline(i)
				continue
			}
			i = j
			atLineStart = false
			top := len(indents) - 1
			switch {
			// Same level: a NEWLINE already ended the last line, so
			// nothing is emitted. Deeper: one INDENT. Shallower: a
			// DEDENT per level closed, and the line must land exactly on
			// an open level. Each case also checks that counting tabs as
			// one column orders the line the same way (TabError).
			case col == indents[top]:
				if alt != altIndents[top] {
					return nil, &Error{Ln: line, Msg: "inconsistent use of tabs and spaces in indentation", Kind: TabErr}
				}
			case col > indents[top]:
				if len(indents) >= maxIndent {
					return nil, &Error{Ln: line, Msg: "too many levels of indentation", Kind: IndentationErr}
				}
				if alt <= altIndents[top] {
					return nil, &Error{Ln: line, Msg: "inconsistent use of tabs and spaces in indentation", Kind: TabErr}
				}
				indents = append(indents, col)
				altIndents = append(altIndents, alt)
				toks = append(toks, token{kind: tIndent, line: line, col: 0, endLine: line, endCol: j - lineStart})
			default:
				for len(indents) > 1 && col < indents[len(indents)-1] {
					indents = indents[:len(indents)-1]
					altIndents = altIndents[:len(altIndents)-1]
					toks = append(toks, token{kind: tDedent, line: line, col: j - lineStart, endLine: line, endCol: j - lineStart})
				}
				if col != indents[len(indents)-1] {
					return nil, &Error{Ln: line, Msg: "unindent does not match any outer indentation level", Kind: IndentationErr}
				}
				if alt != altIndents[len(altIndents)-1] {
					return nil, &Error{Ln: line, Msg: "inconsistent use of tabs and spaces in indentation", Kind: TabErr}
				}
			}
		}
		if i >= len(src) {
			break
		}
		c := src[i]
		switch {
		case c == '\n':
			// A line end is a NEWLINE only outside brackets.
			if depth == 0 {
				toks = append(toks, token{kind: tNewline, line: line, col: i - lineStart, endLine: line, endCol: i - lineStart + 1})
				atLineStart = true
			}
			i++
			newline(i)
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f':
			// parse has already made every "\r\n" and lone '\r' a
			// "\n" (universalNewlines); a '\r' reaching here comes from
			// a direct call of tokenize and is skipped as whitespace.
			i++
			continue
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		case c == '\\':
			if i+1 < len(src) && src[i+1] == '\n' {
				i += 2
				newline(i)
				continue
			}
			if i+2 < len(src) && src[i+1] == '\r' && src[i+2] == '\n' {
				i += 3
				newline(i)
				continue
			}
			// A backslash is only a line continuation at the end of a
			// line (§2.1.5).
			return nil, errAt("unexpected character after line continuation character")
		}
		startLine, startCol := line, i-lineStart
		// Strings (with optional prefix). A triple-quoted string may
		// span lines: line and lineStart follow its newlines so the next
		// token's column is right.
		if j, ok := stringStart(src, i); ok {
			tok, end, err := scanString(src, i, j, line)
			if err != nil {
				return nil, err
			}
			for k := i; k < end; k++ {
				if src[k] == '\n' {
					newline(k + 1)
				}
			}
			tok.line, tok.col, tok.endLine, tok.endCol = startLine, startCol, line, end-lineStart
			toks = append(toks, tok)
			i = end
			continue
		}
		// Identifiers (§2.3): a letter or '_' (Unicode XID_Start, as
		// approximated by isIDStart), then XID_Continue characters.
		r, size := utf8.DecodeRuneInString(src[i:])
		if isIDStart(r) {
			j := i + size
			for j < len(src) {
				r2, s2 := utf8.DecodeRuneInString(src[j:])
				if isIDContinue(r2) {
					j += s2
					continue
				}
				break
			}
			name := src[i:j]
			if !isASCII(name) {
				// The normalization tables come from golang.org/x/text at the version
				// go.mod pins, so every node normalizes a name the same way; CPython
				// uses its own Unicode database, and the two can disagree only on
				// characters added in a Unicode version one of them lacks.
				name = norm.NFKC.String(name) // as CPython does (PEP 3131)
			}
			toks = append(toks, token{kind: tName, val: name, line: line, col: startCol, endLine: line, endCol: j - lineStart})
			i = j
			continue
		}
		// Numbers, including floats that start with '.' (.5).
		if (c >= '0' && c <= '9') || (c == '.' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9') {
			tok, end, err := scanNumber(src, i)
			if err != nil {
				return nil, errAt(err.Error())
			}
			tok.line, tok.col, tok.endLine, tok.endCol = line, startCol, line, end-lineStart
			toks = append(toks, tok)
			i = end
			continue
		}
		op, msg := scanOp(src, i)
		if msg != "" {
			return nil, errAt(msg)
		}
		// Bracket bookkeeping: depth suppresses NEWLINE and indentation
		// inside brackets; opens remembers each bracket for the
		// mismatch and never-closed messages.
		switch op {
		// The nesting limit is checked in the tokenizer, before the parser
		// recurses, so a hostile source of 10,000 '(' costs one error, not a
		// deep Go recursion.
		case "(", "[", "{":
			depth++
			opens = append(opens, opener{op[0], line, startCol})
			if depth > MaxSourceNesting {
				return nil, errAt("too many nested parentheses")
			}
		case ")", "]", "}":
			if depth == 0 {
				return nil, errAt(fmt.Sprintf("unmatched '%s'", op))
			}
			top := opens[len(opens)-1]
			if want := map[byte]byte{'(': ')', '[': ']', '{': '}'}[top.ch]; want != op[0] {
				msg := fmt.Sprintf("closing parenthesis '%s' does not match opening parenthesis '%c'", op, top.ch)
				if top.line != line {
					msg += fmt.Sprintf(" on line %d", top.line)
				}
				return nil, errAt(msg)
			}
			opens = opens[:len(opens)-1]
			depth--
		}
		toks = append(toks, token{kind: tOp, val: op, line: line, col: startCol, endLine: line, endCol: startCol + len(op)})
		i += len(op)
	}
	// End of input: an open bracket is reported at its own line, as
	// CPython does.
	if depth > 0 {
		top := opens[len(opens)-1]
		return nil, &Error{Ln: top.line, Msg: fmt.Sprintf("'%c' was never closed", top.ch)}
	}
	// A file whose last line has no line end still ends that logical
	// line; the layout tokens at the end sit at the end of input.
	endCol := i - lineStart
	if len(toks) > 0 && toks[len(toks)-1].kind != tNewline && toks[len(toks)-1].kind != tDedent {
		toks = append(toks, token{kind: tNewline, line: line, col: endCol, endLine: line, endCol: endCol + 1})
	}
	for len(indents) > 1 {
		indents = indents[:len(indents)-1]
		toks = append(toks, token{kind: tDedent, line: line, col: endCol, endLine: line, endCol: endCol})
	}
	toks = append(toks, token{kind: tEOF, line: line, col: endCol, endLine: line, endCol: endCol})
	return toks, nil
}

// scanOp reads the operator or delimiter at src[i] (§2.5, §2.6), the
// three-character ones before their two-character prefixes. Anything
// else is an error, whose message (msg, op "") is worded as CPython's
// tokenizer words it for that character.
func scanOp(src string, i int) (op, msg string) {
	for _, cand := range []string{"**=", "//=", ">>=", "<<=", "...", "->", "**", "//", "<<", ">>", "<=", ">=", "==", "!=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@=", ":="} {
		if strings.HasPrefix(src[i:], cand) {
			return cand, ""
		}
	}
	c := src[i]
	if strings.IndexByte("+-*/%@&|^~<>()[]{},:.;=", c) >= 0 {
		return string(c), ""
	}
	r, size := utf8.DecodeRuneInString(src[i:])
	switch {
	case c == '!':
		return "", "invalid syntax"
	case r == utf8.RuneError && size <= 1:
		return "", fmt.Sprintf("(unicode error) 'utf-8' codec can't decode byte 0x%02x in position %d: invalid start byte", c, i)
	case c == '$' || c == '?' || c == '`':
		return "", "invalid syntax"
	}
	return "", fmt.Sprintf("invalid character '%c' (U+%04X)", r, r)
}

// isIDStart approximates Unicode's XID_Start, which Go's unicode package
// does not have, plus '_'.
func isIDStart(r rune) bool {
	if r < utf8.RuneSelf {
		return r == '_' || (r|0x20 >= 'a' && r|0x20 <= 'z')
	}
	return unicode.IsLetter(r) || unicode.Is(unicode.Nl, r) || unicode.Is(unicode.Other_ID_Start, r)
}

// isIDContinue approximates XID_Continue.
func isIDContinue(r rune) bool {
	if r < utf8.RuneSelf {
		return r == '_' || (r|0x20 >= 'a' && r|0x20 <= 'z') || (r >= '0' && r <= '9')
	}
	return isIDStart(r) || unicode.In(r, unicode.Mn, unicode.Mc, unicode.Nd, unicode.Pc, unicode.Other_ID_Continue)
}

// isASCII reports whether s needs no NFKC normalization pass (ASCII
// names are already normal).
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// stringStart reports whether a string literal starts at i and where its
// quote is. The prefixes are those of §2.4.1 in any case: r, u, b, f and
// the two-letter rb/br and rf/fr; others (ur, bu, ...) leave the letters
// to be scanned as a name.
func stringStart(src string, i int) (int, bool) {
	j := i
	for j < len(src) && j-i < 2 && strings.IndexByte("rRbBfFuU", src[j]) >= 0 {
		j++
	}
	if j < len(src) && (src[j] == '\'' || src[j] == '"') {
		prefix := strings.ToLower(src[i:j])
		switch prefix {
		case "", "r", "b", "f", "u", "rb", "br", "fr", "rf":
			return j, true
		}
	}
	return 0, false
}

// scanString scans the string literal whose prefix starts at start and
// quote at q, returning the token and the offset after it (§2.4.1). A
// backslash always skips the next character (so \' does not end the
// literal, even in a raw string, as in Python), and a single-quoted
// literal may not contain a newline. The body is decoded here except for
// f-strings, which the parser splits into fields first.
func scanString(src string, start, q int, line int) (token, int, error) {
	prefix := strings.ToLower(src[start:q])
	tok := token{kind: tString, isBytes: strings.Contains(prefix, "b"), isF: strings.Contains(prefix, "f"),
		isRaw: strings.Contains(prefix, "r"), isU: prefix == "u"}
	// The literal ends at the first unescaped copy of its opening quote,
	// tripled for a triple-quoted literal.
	quote := src[q : q+1]
	triple := strings.HasPrefix(src[q:], strings.Repeat(quote, 3))
	if triple {
		quote = strings.Repeat(quote, 3)
	}
	i := q + len(quote)
	bodyStart := i
	// nl counts the line ends inside the literal so far, for the line
	// an unterminated triple-quoted literal is "detected at".
	nl := 0
	for {
		if i >= len(src) {
			if triple {
				// CPython reports the line of the end of input, not
				// counting a final newline.
				if strings.HasSuffix(src, "\n") {
					nl--
				}
				return tok, 0, &Error{Ln: line, Msg: fmt.Sprintf("unterminated triple-quoted string literal (detected at line %d)", line+nl)}
			}
			return tok, 0, &Error{Ln: line, Msg: fmt.Sprintf("unterminated string literal (detected at line %d)", line)}
		}
		c := src[i]
		if c == '\\' {
			if i+1 < len(src) && src[i+1] == '\n' {
				nl++
			}
			i += 2
			continue
		}
		if c == '\n' {
			if !triple {
				return tok, 0, &Error{Ln: line, Msg: fmt.Sprintf("unterminated string literal (detected at line %d)", line)}
			}
			nl++
		}
		if strings.HasPrefix(src[i:], quote) {
			break
		}
		i++
	}
	// val is the body between the quotes; text keeps the whole literal
	// for the f-string column arithmetic (fieldStart).
	tok.val = src[bodyStart:i]
	tok.bodyOff = bodyStart - start
	end := i + len(quote)
	tok.text = src[start:end]
	if !tok.isF {
		s, err := decodeEscapes(tok.val, tok.isRaw, tok.isBytes)
		if err != nil {
			return tok, 0, &Error{Ln: line, Msg: err.Error()}
		}
		tok.str = s
	}
	return tok, end, nil
}

// decodeEscapes interprets backslash escapes of a str or bytes literal
// (§2.4.1.1). A raw literal keeps its backslashes. An unrecognized escape
// keeps its backslash, as CPython does (with a DeprecationWarning the
// PVM does not emit). \N{name}, \u and \U exist only in str literals;
// in bytes they are unrecognized escapes. Octal escapes take up to three
// digits.
func decodeEscapes(s string, raw, isBytes bool) (string, error) {
	// A bytes literal may only spell ASCII characters; higher bytes need
	// escapes (§2.4.1).
	if isBytes {
		for _, r := range s {
			if r >= 0x80 {
				return "", fmt.Errorf("bytes can only contain ASCII literal characters")
			}
		}
	}
	if raw || !strings.Contains(s, "\\") {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case '\n':
			// A backslash-newline in a literal is a line continuation:
			// both characters vanish.
		case '\\', '\'', '"':
			b.WriteByte(e)
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'a':
			b.WriteByte(7)
		case 'b':
			b.WriteByte(8)
		case 'f':
			b.WriteByte(12)
		case 'v':
			b.WriteByte(11)
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			// In bytes a value above 0o377 keeps only its low byte.
			v, _ := strconv.ParseUint(s[i:j], 8, 32)
			if isBytes {
				b.WriteByte(byte(v))
			} else {
				b.WriteRune(rune(v))
			}
			i = j - 1
		case 'N':
			if isBytes {
				b.WriteString(`\N`)
				continue
			}
			end := strings.IndexByte(s[i:], '}')
			if i+1 >= len(s) || s[i+1] != '{' || end < 0 {
				return "", fmt.Errorf("(unicode error) 'unicodeescape' codec can't decode bytes: malformed \\N character escape")
			}
			r, ok := lookupRuneName(s[i+2 : i+end])
			if !ok {
				return "", fmt.Errorf("(unicode error) 'unicodeescape' codec can't decode bytes: unknown Unicode character name")
			}
			b.WriteRune(r)
			i += end
		case 'x', 'u', 'U':
			n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			if isBytes && e != 'x' {
				b.WriteByte('\\')
				b.WriteByte(e)
				continue
			}
			if i+1+n > len(s) {
				return "", fmt.Errorf("truncated \\%cXX escape", e)
			}
			v, err := strconv.ParseUint(s[i+1:i+1+n], 16, 32)
			if err != nil {
				return "", fmt.Errorf("truncated \\%cXX escape", e)
			}
			if isBytes {
				b.WriteByte(byte(v))
			} else {
				if v > 0x10ffff {
					return "", fmt.Errorf("illegal Unicode character")
				}
				b.WriteRune(rune(v))
			}
			i += n
		default:
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	return b.String(), nil
}

// scanNumber scans the numeric literal at i (§2.4.4–§2.4.7) as CPython
// 3.11's tokenizer does: an int in base 10 (no leading zeros unless the
// value is 0), 16, 8 or 2, with single underscores between digits, or a
// float. A literal must not run into a letter, digit or underscore
// ("1abc", "1e", "0x", "1_"), except the keywords that may follow a number
// in valid code ("1if x else 2"): CPython's verify_end_of_number, with its
// "invalid ... literal" messages. Imaginary literals are refused: the PVM
// has no complex type. The token holds an int64 when the value fits, else
// a *big.Int, or a float64.
func scanNumber(src string, i int) (token, int, error) {
	at := func(k int) byte {
		if k < len(src) {
			return src[k]
		}
		return 0
	}
	j := i
	if src[j] == '0' && strings.IndexByte("xXoObB", at(j+1)) >= 0 {
		return scanPrefixedInt(src, i)
	}
	isFloat := false
	if src[j] == '0' {
		// Zeros, possibly with underscores; "0_1" is still leading zeros.
		for at(j) == '0' || at(j) == '_' {
			if at(j) == '_' && !isDecDigit(at(j+1)) {
				return token{}, 0, fmt.Errorf("invalid decimal literal")
			}
			j++
		}
	}
	j, err := decimalTail(src, j)
	if err != nil {
		return token{}, 0, err
	}
	if at(j) == '.' {
		isFloat = true
		j++
		if isDecDigit(at(j)) {
			if j, err = decimalTail(src, j); err != nil {
				return token{}, 0, err
			}
		}
	}
	if c := at(j); c == 'e' || c == 'E' {
		k := j + 1
		if at(k) == '+' || at(k) == '-' {
			k++
			if !isDecDigit(at(k)) {
				return token{}, 0, fmt.Errorf("invalid decimal literal")
			}
		}
		if isDecDigit(at(k)) {
			isFloat = true
			if j, err = decimalTail(src, k); err != nil {
				return token{}, 0, err
			}
		}
		// Otherwise the number ends before the 'e', which must begin a
		// keyword ("1else"): verified below.
	}
	if c := at(j); c == 'j' || c == 'J' {
		if err := endOfNumber(src, j+1, "imaginary"); err != nil {
			return token{}, 0, err
		}
		return token{}, 0, fmt.Errorf("PVM: complex literals are not supported")
	}
	if err := endOfNumber(src, j, "decimal"); err != nil {
		return token{}, 0, err
	}
	text := strings.ReplaceAll(src[i:j], "_", "")
	if isFloat {
		// Float literals are parsed by pvm/softfloat (correctly rounded in
		// integer arithmetic; overflow gives inf as in CPython), like every
		// other float the program can see.
		f, err := softfloat.Parse(text)
		if err != nil {
			return token{}, 0, fmt.Errorf("invalid decimal literal")
		}
		return token{kind: tNumber, num: f.Float64()}, j, nil
	}
	if len(text) > 1 && text[0] == '0' && strings.Trim(text, "0") != "" {
		return token{}, 0, fmt.Errorf("leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers")
	}
	// 2**4096, the PVM's integer bound, has 1234 digits: a longer
	// literal cannot compile (pvm/compile refuses it), so it is refused
	// before big.Int spends time converting it.
	if len(text) > 1300 {
		return token{}, 0, fmt.Errorf("integer literal too large")
	}
	v, ok := new(big.Int).SetString(text, 10)
	if !ok {
		return token{}, 0, fmt.Errorf("invalid decimal literal")
	}
	return numTok(v), j, nil
}

// scanPrefixedInt scans a 0x, 0o or 0b literal at i: digits of its base
// with single underscores before any of them (CPython allows "0x_1"). A
// decimal digit outside an octal or binary literal's range is named in
// the error, as CPython does.
func scanPrefixedInt(src string, i int) (token, int, error) {
	base := map[byte]int{'x': 16, 'o': 8, 'b': 2}[src[i+1]|0x20]
	kind := map[int]string{16: "hexadecimal", 8: "octal", 2: "binary"}[base]
	inBase := func(c byte) bool {
		switch base {
		case 16:
			return isDecDigit(c) || (c|0x20 >= 'a' && c|0x20 <= 'f')
		case 8:
			return c >= '0' && c <= '7'
		}
		return c == '0' || c == '1'
	}
	j := i + 2
	for {
		if j < len(src) && src[j] == '_' {
			j++
		}
		if j >= len(src) || !inBase(src[j]) {
			if j < len(src) && base != 16 && isDecDigit(src[j]) {
				return token{}, 0, fmt.Errorf("invalid digit '%c' in %s literal", src[j], kind)
			}
			return token{}, 0, fmt.Errorf("invalid %s literal", kind)
		}
		for j < len(src) && inBase(src[j]) {
			j++
		}
		if j >= len(src) || src[j] != '_' {
			break
		}
	}
	if j < len(src) && base != 16 && isDecDigit(src[j]) {
		return token{}, 0, fmt.Errorf("invalid digit '%c' in %s literal", src[j], kind)
	}
	if err := endOfNumber(src, j, kind); err != nil {
		return token{}, 0, err
	}
	v, ok := new(big.Int).SetString(strings.ReplaceAll(src[i+2:j], "_", ""), base)
	if !ok {
		return token{}, 0, fmt.Errorf("invalid %s literal", kind)
	}
	return numTok(v), j, nil
}

// decimalTail scans decimal digits from j, each underscore followed by a
// digit (CPython's tok_decimal_tail), and returns where they end.
func decimalTail(src string, j int) (int, error) {
	for {
		for j < len(src) && isDecDigit(src[j]) {
			j++
		}
		if j >= len(src) || src[j] != '_' {
			return j, nil
		}
		j++
		if j >= len(src) || !isDecDigit(src[j]) {
			return 0, fmt.Errorf("invalid decimal literal")
		}
	}
}

// endOfNumber refuses a number literal that runs into a letter, digit,
// or underscore at j, unless a keyword that can
// follow a number in valid code starts there (and, else, for, if, in,
// is, not, or: CPython's verify_end_of_number, which only warns then).
func endOfNumber(src string, j int, kind string) error {
	if j >= len(src) {
		return nil
	}
	rest := src[j:]
	for _, kw := range []string{"and", "else", "for", "if", "in", "is", "not", "or"} {
		if strings.HasPrefix(rest, kw) {
			return nil
		}
	}
	// A non-ASCII letter is left to the parser ("5é" is "invalid
	// syntax" in CPython 3.11, not an invalid literal).
	if c := src[j]; c == '_' || isDecDigit(c) || (c|0x20 >= 'a' && c|0x20 <= 'z') {
		return fmt.Errorf("invalid %s literal", kind)
	}
	return nil
}

func isDecDigit(c byte) bool { return c >= '0' && c <= '9' }

// numTok is the number token of v, as an int64 when it fits so that
// small constants need no big.Int.
func numTok(v *big.Int) token {
	if v.IsInt64() {
		return token{kind: tNumber, num: v.Int64()}
	}
	return token{kind: tNumber, num: v}
}
