package syntax

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Error is a syntax error at a line.
type Error struct {
	Ln  int
	Msg string
}

func (e *Error) Error() string { return fmt.Sprintf("line %d: %s", e.Ln, e.Msg) }

// Line is the 1-based line of the error.
func (e *Error) Line() int { return e.Ln }

type tokKind uint8

const (
	tEOF tokKind = iota
	tName
	tNumber
	tString
	tOp
	tNewline
	tIndent
	tDedent
)

type token struct {
	kind      tokKind
	val       string // name, operator, or raw string body
	line, col int
	num       any // int64, *big.Int or float64 for tNumber
	// Strings.
	str     string // decoded value (not for f-strings)
	isBytes bool
	isF     bool
	isRaw   bool
}

// MaxSourceNesting bounds bracket nesting in the tokenizer and recursion in
// the parser, so hostile source cannot exhaust the Go stack.
const MaxSourceNesting = 200

func tokenize(src string) ([]token, error) {
	var toks []token
	indents := []int{0}
	line, i := 1, 0
	depth := 0
	type opener struct {
		ch   byte
		line int
	}
	var opens []opener // unclosed brackets, for CPython's messages
	atLineStart := true
	errAt := func(msg string) error { return &Error{Ln: line, Msg: msg} }
	for {
		if atLineStart && depth == 0 {
			// Measure indentation; skip blank and comment-only lines.
			col := 0
			j := i
			for j < len(src) {
				switch src[j] {
				case ' ':
					col++
				case '\t':
					col = (col/8 + 1) * 8
				case '\f':
					col = 0
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
					line++
				}
				i = j
				continue
			}
			if src[j] == '\\' && j+1 < len(src) && src[j+1] == '\n' {
				i = j + 2
				line++
				continue
			}
			i = j
			atLineStart = false
			if col > indents[len(indents)-1] {
				indents = append(indents, col)
				toks = append(toks, token{kind: tIndent, line: line})
			} else {
				for col < indents[len(indents)-1] {
					indents = indents[:len(indents)-1]
					toks = append(toks, token{kind: tDedent, line: line})
				}
				if col != indents[len(indents)-1] {
					return nil, errAt("unindent does not match any outer indentation level")
				}
			}
		}
		if i >= len(src) {
			break
		}
		c := src[i]
		switch {
		case c == '\n':
			if depth == 0 {
				toks = append(toks, token{kind: tNewline, line: line})
				atLineStart = true
			}
			line++
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f':
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
				line++
				continue
			}
			if i+2 < len(src) && src[i+1] == '\r' && src[i+2] == '\n' {
				i += 3
				line++
				continue
			}
			return nil, errAt("unexpected character after line continuation character")
		}
		startLine := line
		// Strings (with optional prefix).
		if j, ok := stringStart(src, i); ok {
			tok, end, nl, err := scanString(src, i, j, line)
			if err != nil {
				return nil, err
			}
			tok.line = startLine
			toks = append(toks, tok)
			line += nl
			i = end
			continue
		}
		r, size := utf8.DecodeRuneInString(src[i:])
		if r == '_' || unicode.IsLetter(r) {
			j := i + size
			for j < len(src) {
				r2, s2 := utf8.DecodeRuneInString(src[j:])
				if r2 == '_' || unicode.IsLetter(r2) || unicode.IsDigit(r2) {
					j += s2
					continue
				}
				break
			}
			toks = append(toks, token{kind: tName, val: src[i:j], line: line})
			i = j
			continue
		}
		if (c >= '0' && c <= '9') || (c == '.' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9') {
			tok, end, err := scanNumber(src, i)
			if err != nil {
				return nil, errAt(err.Error())
			}
			tok.line = line
			toks = append(toks, tok)
			i = end
			continue
		}
		op := ""
		for _, cand := range []string{"**=", "//=", ">>=", "<<=", "...", "->", "**", "//", "<<", ">>", "<=", ">=", "==", "!=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@=", ":="} {
			if strings.HasPrefix(src[i:], cand) {
				op = cand
				break
			}
		}
		if op == "" {
			if strings.IndexByte("+-*/%@&|^~<>()[]{},:.;=", c) < 0 {
				return nil, errAt(fmt.Sprintf("invalid character '%c' (U+%04X)", r, r))
			}
			op = string(c)
		}
		switch op {
		case "(", "[", "{":
			depth++
			opens = append(opens, opener{op[0], line})
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
		toks = append(toks, token{kind: tOp, val: op, line: line})
		i += len(op)
	}
	if depth > 0 {
		top := opens[len(opens)-1]
		return nil, &Error{Ln: top.line, Msg: fmt.Sprintf("'%c' was never closed", top.ch)}
	}
	if len(toks) > 0 && toks[len(toks)-1].kind != tNewline && toks[len(toks)-1].kind != tDedent {
		toks = append(toks, token{kind: tNewline, line: line})
	}
	for len(indents) > 1 {
		indents = indents[:len(indents)-1]
		toks = append(toks, token{kind: tDedent, line: line})
	}
	toks = append(toks, token{kind: tEOF, line: line})
	return toks, nil
}

// stringStart reports whether a string literal starts at i and where its
// quote is.
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

func scanString(src string, start, q int, line int) (token, int, int, error) {
	prefix := strings.ToLower(src[start:q])
	tok := token{kind: tString, isBytes: strings.Contains(prefix, "b"), isF: strings.Contains(prefix, "f"), isRaw: strings.Contains(prefix, "r")}
	quote := src[q : q+1]
	triple := strings.HasPrefix(src[q:], strings.Repeat(quote, 3))
	if triple {
		quote = strings.Repeat(quote, 3)
	}
	i := q + len(quote)
	bodyStart := i
	nl := 0
	for {
		if i >= len(src) {
			return tok, 0, 0, &Error{Ln: line, Msg: "unterminated string literal"}
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
				return tok, 0, 0, &Error{Ln: line, Msg: "unterminated string literal"}
			}
			nl++
		}
		if strings.HasPrefix(src[i:], quote) {
			break
		}
		i++
	}
	tok.val = src[bodyStart:i]
	end := i + len(quote)
	if !tok.isF {
		s, err := decodeEscapes(tok.val, tok.isRaw, tok.isBytes)
		if err != nil {
			return tok, 0, 0, &Error{Ln: line, Msg: err.Error()}
		}
		tok.str = s
	}
	return tok, end, nl, nil
}

// decodeEscapes interprets backslash escapes of a str or bytes literal.
func decodeEscapes(s string, raw, isBytes bool) (string, error) {
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
			v, _ := strconv.ParseUint(s[i:j], 8, 32)
			if isBytes {
				b.WriteByte(byte(v))
			} else {
				b.WriteRune(rune(v))
			}
			i = j - 1
		case 'x', 'u', 'U':
			n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			if isBytes && e != 'x' {
				b.WriteByte('\\')
				b.WriteByte(e)
				continue
			}
			if i+n >= len(s)+0 && i+n > len(s)-1+1 {
				return "", fmt.Errorf("truncated \\%cXX escape", e)
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

func scanNumber(src string, i int) (token, int, error) {
	j := i
	isDigit := func(c byte, base int) bool {
		switch base {
		case 16:
			return (c >= '0' && c <= '9') || (c|0x20 >= 'a' && c|0x20 <= 'f')
		case 8:
			return c >= '0' && c <= '7'
		case 2:
			return c == '0' || c == '1'
		}
		return c >= '0' && c <= '9'
	}
	if src[j] == '0' && j+1 < len(src) && strings.IndexByte("xXoObB", src[j+1]) >= 0 {
		base := map[byte]int{'x': 16, 'o': 8, 'b': 2}[src[j+1]|0x20]
		j += 2
		for j < len(src) && (isDigit(src[j], base) || src[j] == '_') {
			j++
		}
		text := strings.ReplaceAll(src[i+2:j], "_", "")
		if text == "" {
			return token{}, 0, fmt.Errorf("invalid %s literal", map[int]string{16: "hexadecimal", 8: "octal", 2: "binary"}[base])
		}
		v, ok := new(big.Int).SetString(text, base)
		if !ok {
			return token{}, 0, fmt.Errorf("invalid number literal")
		}
		return numTok(v), j, nil
	}
	isFloat := false
	for j < len(src) && (isDigit(src[j], 10) || src[j] == '_') {
		j++
	}
	if j < len(src) && src[j] == '.' {
		isFloat = true
		j++
		for j < len(src) && (isDigit(src[j], 10) || src[j] == '_') {
			j++
		}
	}
	if j < len(src) && (src[j] == 'e' || src[j] == 'E') {
		k := j + 1
		if k < len(src) && (src[k] == '+' || src[k] == '-') {
			k++
		}
		if k < len(src) && isDigit(src[k], 10) {
			isFloat = true
			j = k
			for j < len(src) && (isDigit(src[j], 10) || src[j] == '_') {
				j++
			}
		}
	}
	if j < len(src) && (src[j] == 'j' || src[j] == 'J') {
		return token{}, 0, fmt.Errorf("PVM: complex literals are not supported")
	}
	text := strings.ReplaceAll(src[i:j], "_", "")
	if isFloat {
		f, err := strconv.ParseFloat(text, 64)
		if err != nil {
			if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
				return token{}, 0, fmt.Errorf("invalid decimal literal")
			}
		}
		return token{kind: tNumber, num: f}, j, nil
	}
	if len(text) > 1 && text[0] == '0' && strings.Trim(text, "0") != "" {
		return token{}, 0, fmt.Errorf("leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers")
	}
	if len(text) > 1300 {
		return token{}, 0, fmt.Errorf("integer literal too large")
	}
	v, ok := new(big.Int).SetString(text, 10)
	if !ok {
		return token{}, 0, fmt.Errorf("invalid decimal literal")
	}
	return numTok(v), j, nil
}

func numTok(v *big.Int) token {
	if v.IsInt64() {
		return token{kind: tNumber, num: v.Int64()}
	}
	return token{kind: tNumber, num: v}
}
