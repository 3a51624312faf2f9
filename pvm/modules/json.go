package modules

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/cowboy-chain/cowboy/pvm/meter"
	"github.com/cowboy-chain/cowboy/pvm/object"
	"github.com/cowboy-chain/cowboy/pvm/vm"
)

// The json module: dumps and loads with CPython 3.11's output, byte for byte
// (json.encoder's py encoder with indent, the C encoder without; the C
// scanner's error messages and positions). dump and load are absent: actors
// have no files.
//
// Metering (pvm/meter "json" block): CostJSONCall once per call, then
// CostJSONPerValue per value encoded or decoded and CostJSONPerByte per byte
// of text written or read, charged as the work happens so that a value
// whose text is huge (a list holding one long string many times) runs out of
// cycles before the text is built.

func init() { register(vm.ModuleDef{Name: "json", Load: loadJSON}) }

func loadJSON(t *vm.Thread) (*vm.Module, error) {
	m := vm.NewModule("json")
	decErr := errorClass("json.decoder", "JSONDecodeError", object.ValueError)
	m.Globals.Set("JSONDecodeError", decErr)
	addFunc(m.Globals, "dumps", jsonDumps)
	addFunc(m.Globals, "loads", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		return jsonLoads(c, decErr, args, kw)
	})
	return m, nil
}

// jsonEncoder holds the options of one dumps call and the text built so far.
type jsonEncoder struct {
	c                                  object.Ctx
	b                                  strings.Builder
	charged                            int // bytes of b already charged
	sortKeys, skipKeys, ensureASCII    bool
	allowNaN, checkCircular, hasIndent bool
	indent, itemSep, keySep            string
	def                                object.Value // default=, nil if absent
	markers                            map[any]bool // containers being encoded
	level                              int          // indent level
}

func jsonDumps(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
	if len(args) != 1 {
		if len(args) == 0 {
			return nil, object.Errorf(object.TypeError, "dumps() missing 1 required positional argument: 'obj'")
		}
		return nil, object.Errorf(object.TypeError, "dumps() takes 1 positional argument but %d were given", len(args))
	}
	if err := object.Charge(c, meter.CostJSONCall); err != nil {
		return nil, err
	}
	e := &jsonEncoder{c: c, ensureASCII: true, allowNaN: true, checkCircular: true, markers: map[any]bool{}}
	var separators object.Value
	for _, k := range kw {
		var err error
		switch k.Name {
		case "sort_keys":
			e.sortKeys, err = object.Truth(c, k.Value)
		case "skipkeys":
			e.skipKeys, err = object.Truth(c, k.Value)
		case "ensure_ascii":
			e.ensureASCII, err = object.Truth(c, k.Value)
		case "allow_nan":
			e.allowNaN, err = object.Truth(c, k.Value)
		case "check_circular":
			e.checkCircular, err = object.Truth(c, k.Value)
		case "default":
			if k.Value != object.None {
				e.def = k.Value
			}
		case "separators":
			separators = k.Value
		case "indent":
			if k.Value == object.None {
				break
			}
			e.hasIndent = true
			if s, ok := k.Value.(object.Str); ok {
				e.indent = string(s)
				break
			}
			n, ok := object.AsInt64(k.Value)
			if !ok {
				return nil, object.Errorf(object.TypeError, "can't multiply sequence by non-int of type '%s'", object.TypeName(k.Value))
			}
			if n > 0 {
				if n > 1<<16 {
					return nil, object.Errorf(object.MemoryError, "")
				}
				e.indent = strings.Repeat(" ", int(n))
			}
		case "cls":
			if k.Value != object.None {
				return nil, object.Errorf(object.TypeError, "PVM: json.dumps(cls=...) is not supported; use default=")
			}
		default:
			return nil, object.Errorf(object.TypeError, "JSONEncoder.__init__() got an unexpected keyword argument '%s'", k.Name)
		}
		if err != nil {
			return nil, err
		}
	}
	e.itemSep, e.keySep = ", ", ": "
	if e.hasIndent {
		e.itemSep = ","
	}
	if separators != nil && separators != object.None {
		l, err := object.ListOf(c, separators)
		if err != nil {
			return nil, err
		}
		if len(l.Elems) != 2 {
			return nil, object.Errorf(object.ValueError, "too many values to unpack (expected 2)")
		}
		is, ok1 := l.Elems[0].(object.Str)
		ks, ok2 := l.Elems[1].(object.Str)
		if !ok1 || !ok2 {
			return nil, object.Errorf(object.TypeError, "make_encoder() argument 6 must be str, not %s", object.TypeName(l.Elems[0]))
		}
		e.itemSep, e.keySep = string(is), string(ks)
	}
	if err := e.encode(args[0]); err != nil {
		return nil, err
	}
	if err := e.flush(); err != nil {
		return nil, err
	}
	// The text's memory was charged by flush as it grew.
	return object.Str(e.b.String()), nil
}

// flush charges the bytes written since the last flush: cycles for the work
// and memory for the string being built.
func (e *jsonEncoder) flush() error {
	n := e.b.Len() - e.charged
	if n <= 0 {
		return nil
	}
	e.charged = e.b.Len()
	if err := object.Charge(e.c, uint64(n)*meter.CostJSONPerByte); err != nil {
		return err
	}
	return object.Alloc(e.c, uint64(n))
}

func (e *jsonEncoder) floatText(f float64) (string, error) {
	switch {
	case f != f:
		if !e.allowNaN {
			return "", object.Errorf(object.ValueError, "Out of range float values are not JSON compliant")
		}
		return "NaN", nil
	case f > 1.7976931348623157e308:
		if !e.allowNaN {
			return "", object.Errorf(object.ValueError, "Out of range float values are not JSON compliant")
		}
		return "Infinity", nil
	case f < -1.7976931348623157e308:
		if !e.allowNaN {
			return "", object.Errorf(object.ValueError, "Out of range float values are not JSON compliant")
		}
		return "-Infinity", nil
	}
	return object.FloatRepr(f), nil
}

// identity is the key under which a container is marked while it is being
// encoded, for the circular-reference check.
func identity(v object.Value) any {
	switch x := v.(type) {
	case *object.List, *object.Dict, *object.Instance, *object.Set:
		return x
	case object.Tuple:
		if len(x) > 0 {
			return &x[0]
		}
	}
	return nil
}

func (e *jsonEncoder) mark(v object.Value) (any, error) {
	if !e.checkCircular {
		return nil, nil
	}
	id := identity(v)
	if id == nil {
		return nil, nil
	}
	if e.markers[id] {
		return nil, object.Errorf(object.ValueError, "Circular reference detected")
	}
	e.markers[id] = true
	return id, nil
}

func (e *jsonEncoder) unmark(id any) {
	if id != nil {
		delete(e.markers, id)
	}
}

func (e *jsonEncoder) encode(v object.Value) error {
	if err := object.Charge(e.c, meter.CostJSONPerValue); err != nil {
		return err
	}
	switch x := v.(type) {
	case object.Str:
		e.writeString(string(x))
		return e.flush()
	case object.NoneType:
		e.b.WriteString("null")
		return nil
	case object.Bool:
		if x {
			e.b.WriteString("true")
		} else {
			e.b.WriteString("false")
		}
		return nil
	case object.Int, *object.BigInt:
		s, err := object.Repr(e.c, x)
		if err != nil {
			return err
		}
		e.b.WriteString(s)
		return e.flush()
	case object.Float:
		s, err := e.floatText(float64(x))
		if err != nil {
			return err
		}
		e.b.WriteString(s)
		return e.flush()
	case *object.List:
		return e.encodeList(x, x.Elems)
	case object.Tuple:
		return e.encodeList(x, x)
	case *object.Dict:
		return e.encodeDict(x)
	}
	if e.def == nil {
		return object.Errorf(object.TypeError, "Object of type %s is not JSON serializable", object.TypeName(v))
	}
	id, err := e.mark(v)
	if err != nil {
		return err
	}
	r, err := e.c.Call(e.def, []object.Value{v}, nil)
	if err != nil {
		return err
	}
	if err := e.nested(func() error { return e.encode(r) }); err != nil {
		return err
	}
	e.unmark(id)
	return nil
}

// nested runs f one native recursion level deeper.
func (e *jsonEncoder) nested(f func() error) error {
	if err := e.c.Nest(); err != nil {
		return err
	}
	defer e.c.Unnest()
	return f()
}

// newline starts a line at the current indent level (indent mode only).
func (e *jsonEncoder) newline() {
	e.b.WriteByte('\n')
	for i := 0; i < e.level; i++ {
		e.b.WriteString(e.indent)
	}
}

func (e *jsonEncoder) encodeList(v object.Value, elems []object.Value) error {
	if len(elems) == 0 {
		e.b.WriteString("[]")
		return nil
	}
	id, err := e.mark(v)
	if err != nil {
		return err
	}
	e.b.WriteByte('[')
	if e.hasIndent {
		e.level++
		e.newline()
	}
	err = e.nested(func() error {
		// Elements are read by index each time: default= may mutate the list.
		for i := 0; i < len(elems); i++ {
			if i > 0 {
				e.b.WriteString(e.itemSep)
				if e.hasIndent {
					e.newline()
				}
			}
			if err := e.encode(elems[i]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if e.hasIndent {
		e.level--
		e.newline()
	}
	e.b.WriteByte(']')
	e.unmark(id)
	return e.flush()
}

func (e *jsonEncoder) encodeDict(d *object.Dict) error {
	if d.Len() == 0 {
		e.b.WriteString("{}")
		return nil
	}
	id, err := e.mark(d)
	if err != nil {
		return err
	}
	items := d.Items()
	if e.sortKeys {
		ts := make([]object.Value, len(items))
		for i, kv := range items {
			ts[i] = object.Tuple{kv[0], kv[1]}
		}
		if err := object.SortValues(e.c, ts, nil, nil); err != nil {
			return err
		}
		for i, t := range ts {
			tu := t.(object.Tuple)
			items[i] = [2]object.Value{tu[0], tu[1]}
		}
	}
	e.b.WriteByte('{')
	if e.hasIndent {
		e.level++
		e.newline()
	}
	err = e.nested(func() error {
		first := true
		for _, kv := range items {
			var key string
			switch k := kv[0].(type) {
			case object.Str:
				key = string(k)
			case object.Float:
				s, err := e.floatText(float64(k))
				if err != nil {
					return err
				}
				key = s
			case object.Bool:
				key = "false"
				if k {
					key = "true"
				}
			case object.NoneType:
				key = "null"
			case object.Int, *object.BigInt:
				s, err := object.Repr(e.c, k)
				if err != nil {
					return err
				}
				key = s
			default:
				if e.skipKeys {
					continue
				}
				return object.Errorf(object.TypeError, "keys must be str, int, float, bool or None, not %s", object.TypeName(kv[0]))
			}
			if !first {
				e.b.WriteString(e.itemSep)
				if e.hasIndent {
					e.newline()
				}
			}
			first = false
			e.writeString(key)
			e.b.WriteString(e.keySep)
			if err := e.encode(kv[1]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if e.hasIndent {
		e.level--
		e.newline()
	}
	e.b.WriteByte('}')
	e.unmark(id)
	return e.flush()
}

const hexDigits = "0123456789abcdef"

func (e *jsonEncoder) writeU(r rune) {
	e.b.WriteString(`\u`)
	e.b.WriteByte(hexDigits[r>>12&15])
	e.b.WriteByte(hexDigits[r>>8&15])
	e.b.WriteByte(hexDigits[r>>4&15])
	e.b.WriteByte(hexDigits[r&15])
}

// writeString writes s as a JSON string literal: json.encoder's
// encode_basestring_ascii when ensure_ascii is set (everything outside
// printable ASCII as \uXXXX, astral characters as surrogate pairs), else
// encode_basestring (only '"', '\\' and control characters escaped).
func (e *jsonEncoder) writeString(s string) {
	e.b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			e.b.WriteString(`\"`)
		case '\\':
			e.b.WriteString(`\\`)
		case '\n':
			e.b.WriteString(`\n`)
		case '\r':
			e.b.WriteString(`\r`)
		case '\t':
			e.b.WriteString(`\t`)
		case '\b':
			e.b.WriteString(`\b`)
		case '\f':
			e.b.WriteString(`\f`)
		default:
			switch {
			case r < 0x20:
				e.writeU(r)
			case !e.ensureASCII || (r < 0x7f):
				e.b.WriteRune(r)
			case r > 0xffff:
				hi, lo := utf16.EncodeRune(r)
				e.writeU(hi)
				e.writeU(lo)
			default:
				e.writeU(r)
			}
		}
	}
	e.b.WriteByte('"')
}

// jsonDecoder parses one loads document. Positions are code-point indices,
// as CPython reports them.
type jsonDecoder struct {
	c      object.Ctx
	errCls *object.Class
	doc    object.Str
	s      []rune
	hook   object.Value // object_hook, nil if absent
	pairs  object.Value // object_pairs_hook
	pFloat object.Value // parse_float
	pInt   object.Value // parse_int
	pConst object.Value // parse_constant
}

func jsonLoads(c object.Ctx, errCls *object.Class, args []object.Value, kw []object.Kw) (object.Value, error) {
	if len(args) != 1 {
		if len(args) == 0 {
			return nil, object.Errorf(object.TypeError, "loads() missing 1 required positional argument: 's'")
		}
		return nil, object.Errorf(object.TypeError, "loads() takes 1 positional argument but %d were given", len(args))
	}
	if err := object.Charge(c, meter.CostJSONCall); err != nil {
		return nil, err
	}
	d := &jsonDecoder{c: c, errCls: errCls}
	for _, k := range kw {
		v := k.Value
		if v == object.None {
			v = nil
		}
		switch k.Name {
		case "object_hook":
			d.hook = v
		case "object_pairs_hook":
			d.pairs = v
		case "parse_float":
			d.pFloat = v
		case "parse_int":
			d.pInt = v
		case "parse_constant":
			d.pConst = v
		case "cls":
			if v != nil {
				return nil, object.Errorf(object.TypeError, "PVM: json.loads(cls=...) is not supported; use object_hook=")
			}
		case "strict":
			// strict=False (control characters inside strings) is not
			// supported; strict=True is the default.
			t, err := object.Truth(c, k.Value)
			if err != nil {
				return nil, err
			}
			if !t {
				return nil, object.Errorf(object.ValueError, "PVM: json.loads(strict=False) is not supported")
			}
		default:
			return nil, object.Errorf(object.TypeError, "JSONDecoder.__init__() got an unexpected keyword argument '%s'", k.Name)
		}
	}
	var text string
	switch x := args[0].(type) {
	case object.Str:
		text = string(x)
		if strings.HasPrefix(text, "\ufeff") {
			d.doc = x
			d.s = []rune(text)
			return nil, d.fail("Unexpected UTF-8 BOM (decode using utf-8-sig)", 0)
		}
	case object.Bytes, *object.ByteArray:
		b, _ := bytesOf(x)
		// json.detect_encoding: the PVM is UTF-8 only; a UTF-8 BOM is
		// skipped as CPython does.
		b = []byte(strings.TrimPrefix(string(b), "\ufeff"))
		if !utf8.Valid(b) {
			return nil, object.Errorf(object.UnicodeDecodeError, "'utf-8' codec can't decode bytes: invalid utf-8")
		}
		text = string(b)
	default:
		return nil, object.Errorf(object.TypeError, "the JSON object must be str, bytes or bytearray, not %s", object.TypeName(args[0]))
	}
	if err := object.Charge(c, uint64(len(text))*meter.CostJSONPerByte); err != nil {
		return nil, err
	}
	if err := object.Alloc(c, 4*uint64(len(text))); err != nil {
		return nil, err
	}
	d.doc = object.Str(text)
	d.s = []rune(text)
	i := d.ws(0)
	v, end, err := d.value(i)
	if err != nil {
		return nil, err
	}
	end = d.ws(end)
	if end != len(d.s) {
		return nil, d.fail("Extra data", end)
	}
	return v, nil
}

// fail raises JSONDecodeError(msg, doc, pos) with CPython's message and
// attributes.
func (d *jsonDecoder) fail(msg string, pos int) error {
	line, col := 1, pos+1
	for i := 0; i < pos && i < len(d.s); i++ {
		if d.s[i] == '\n' {
			line++
			col = pos - i
		}
	}
	full := msg + ": line " + itoa(line) + " column " + itoa(col) + " (char " + itoa(pos) + ")"
	exc := object.NewException(d.errCls, object.Str(full))
	exc.Dict.Set("msg", object.Str(msg))
	exc.Dict.Set("doc", d.doc)
	exc.Dict.Set("pos", object.Int(pos))
	exc.Dict.Set("lineno", object.Int(line))
	exc.Dict.Set("colno", object.Int(col))
	return object.Raise(exc)
}

func itoa(n int) string {
	s, _ := object.Int(n).Repr(nil)
	return s
}

func (d *jsonDecoder) ws(i int) int {
	for i < len(d.s) {
		switch d.s[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

func (d *jsonDecoder) hasPrefix(i int, lit string) bool {
	for _, r := range lit {
		if i >= len(d.s) || d.s[i] != r {
			return false
		}
		i++
	}
	return true
}

// constant returns the value of NaN, Infinity or -Infinity.
func (d *jsonDecoder) constant(name string) (object.Value, error) {
	if d.pConst != nil {
		return d.c.Call(d.pConst, []object.Value{object.Str(name)}, nil)
	}
	f, _ := object.ParseFloat(name)
	return object.Float(f), nil
}

// value parses the value starting at i (whitespace already skipped) and
// returns it with the index just past it.
func (d *jsonDecoder) value(i int) (object.Value, int, error) {
	if err := object.Charge(d.c, meter.CostJSONPerValue); err != nil {
		return nil, 0, err
	}
	if i >= len(d.s) {
		return nil, 0, d.fail("Expecting value", i)
	}
	switch r := d.s[i]; {
	case r == '"':
		s, end, err := d.str(i + 1)
		if err != nil {
			return nil, 0, err
		}
		v, err := object.NewStr(d.c, s)
		return v, end, err
	case r == '{':
		return d.object(i + 1)
	case r == '[':
		return d.array(i + 1)
	case r == 'n' && d.hasPrefix(i, "null"):
		return object.None, i + 4, nil
	case r == 't' && d.hasPrefix(i, "true"):
		return object.True, i + 4, nil
	case r == 'f' && d.hasPrefix(i, "false"):
		return object.False, i + 5, nil
	case r == 'N' && d.hasPrefix(i, "NaN"):
		v, err := d.constant("NaN")
		return v, i + 3, err
	case r == 'I' && d.hasPrefix(i, "Infinity"):
		v, err := d.constant("Infinity")
		return v, i + 8, err
	case r == '-' && d.hasPrefix(i, "-Infinity"):
		v, err := d.constant("-Infinity")
		return v, i + 9, err
	case r == '-' || (r >= '0' && r <= '9'):
		return d.number(i)
	}
	return nil, 0, d.fail("Expecting value", i)
}

func isDigit(r rune) bool { return r >= '0' && r <= '9' }

// number matches (-?(?:0|[1-9]\d*))(\.\d+)?([eE][-+]?\d+)? at i.
func (d *jsonDecoder) number(i int) (object.Value, int, error) {
	start := i
	if d.s[i] == '-' {
		i++
	}
	switch {
	case i < len(d.s) && d.s[i] == '0':
		i++
	case i < len(d.s) && isDigit(d.s[i]):
		for i < len(d.s) && isDigit(d.s[i]) {
			i++
		}
	default:
		return nil, 0, d.fail("Expecting value", start)
	}
	isFloat := false
	if i+1 < len(d.s) && d.s[i] == '.' && isDigit(d.s[i+1]) {
		isFloat = true
		i += 2
		for i < len(d.s) && isDigit(d.s[i]) {
			i++
		}
	}
	if i < len(d.s) && (d.s[i] == 'e' || d.s[i] == 'E') {
		j := i + 1
		if j < len(d.s) && (d.s[j] == '+' || d.s[j] == '-') {
			j++
		}
		if j < len(d.s) && isDigit(d.s[j]) {
			for j < len(d.s) && isDigit(d.s[j]) {
				j++
			}
			isFloat = true
			i = j
		}
	}
	text := string(d.s[start:i])
	if isFloat {
		if d.pFloat != nil {
			v, err := d.c.Call(d.pFloat, []object.Value{object.Str(text)}, nil)
			return v, i, err
		}
		f, _ := object.ParseFloat(text)
		return object.Float(f), i, nil
	}
	if d.pInt != nil {
		v, err := d.c.Call(d.pInt, []object.Value{object.Str(text)}, nil)
		return v, i, err
	}
	v, err := object.ParseInt(text, 10)
	return v, i, err
}

// str parses a string body starting just after its opening quote.
func (d *jsonDecoder) str(i int) (string, int, error) {
	start := i - 1
	var b strings.Builder
	for {
		if i >= len(d.s) {
			return "", 0, d.fail("Unterminated string starting at", start)
		}
		r := d.s[i]
		switch {
		case r == '"':
			return b.String(), i + 1, nil
		case r == '\\':
			i++
			if i >= len(d.s) {
				return "", 0, d.fail("Unterminated string starting at", start)
			}
			switch d.s[i] {
			case '"':
				b.WriteByte('"')
			case '\\':
				b.WriteByte('\\')
			case '/':
				b.WriteByte('/')
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'u':
				u, ok := d.hex4(i + 1)
				if !ok {
					return "", 0, d.fail("Invalid \\uXXXX escape", i)
				}
				i += 4
				if u >= 0xd800 && u <= 0xdbff && i+2 < len(d.s) && d.s[i+1] == '\\' && d.s[i+2] == 'u' {
					lo, ok := d.hex4(i + 3)
					if !ok {
						return "", 0, d.fail("Invalid \\uXXXX escape", i+2)
					}
					if lo >= 0xdc00 && lo <= 0xdfff {
						u = utf16.DecodeRune(u, lo)
						i += 6
					}
				}
				// A lone surrogate cannot be held in the PVM's UTF-8 strings;
				// it becomes U+FFFD (documented difference from CPython).
				b.WriteRune(u)
			default:
				return "", 0, d.fail("Invalid \\escape", i-1)
			}
			i++
		case r < 0x20:
			return "", 0, d.fail("Invalid control character at", i)
		default:
			b.WriteRune(r)
			i++
		}
	}
}

func (d *jsonDecoder) hex4(i int) (rune, bool) {
	if i+4 > len(d.s) {
		return 0, false
	}
	var u rune
	for _, r := range d.s[i : i+4] {
		u <<= 4
		switch {
		case r >= '0' && r <= '9':
			u |= r - '0'
		case r >= 'a' && r <= 'f':
			u |= r - 'a' + 10
		case r >= 'A' && r <= 'F':
			u |= r - 'A' + 10
		default:
			return 0, false
		}
	}
	return u, true
}

func (d *jsonDecoder) nest() error { return d.c.Nest() }

func (d *jsonDecoder) array(i int) (object.Value, int, error) {
	if err := d.nest(); err != nil {
		return nil, 0, err
	}
	defer d.c.Unnest()
	var elems []object.Value
	i = d.ws(i)
	if i < len(d.s) && d.s[i] == ']' {
		l, err := object.NewList(d.c, elems)
		return l, i + 1, err
	}
	for {
		v, end, err := d.value(i)
		if err != nil {
			return nil, 0, err
		}
		elems = append(elems, v)
		i = d.ws(end)
		if i < len(d.s) && d.s[i] == ']' {
			l, err := object.NewList(d.c, elems)
			return l, i + 1, err
		}
		if i >= len(d.s) || d.s[i] != ',' {
			return nil, 0, d.fail("Expecting ',' delimiter", i)
		}
		i = d.ws(i + 1)
	}
}

func (d *jsonDecoder) object(i int) (object.Value, int, error) {
	if err := d.nest(); err != nil {
		return nil, 0, err
	}
	defer d.c.Unnest()
	var pairs [][2]object.Value
	i = d.ws(i)
	if i < len(d.s) && d.s[i] == '}' {
		v, err := d.finishObject(pairs)
		return v, i + 1, err
	}
	for {
		if i >= len(d.s) || d.s[i] != '"' {
			return nil, 0, d.fail("Expecting property name enclosed in double quotes", i)
		}
		ks, end, err := d.str(i + 1)
		if err != nil {
			return nil, 0, err
		}
		key, err := object.NewStr(d.c, ks)
		if err != nil {
			return nil, 0, err
		}
		i = d.ws(end)
		if i >= len(d.s) || d.s[i] != ':' {
			return nil, 0, d.fail("Expecting ':' delimiter", i)
		}
		i = d.ws(i + 1)
		v, end, err := d.value(i)
		if err != nil {
			return nil, 0, err
		}
		pairs = append(pairs, [2]object.Value{key, v})
		i = d.ws(end)
		if i < len(d.s) && d.s[i] == '}' {
			v, err := d.finishObject(pairs)
			return v, i + 1, err
		}
		if i >= len(d.s) || d.s[i] != ',' {
			return nil, 0, d.fail("Expecting ',' delimiter", i)
		}
		i = d.ws(i + 1)
	}
}

// finishObject builds the dict of a JSON object, or hands its pairs to
// object_pairs_hook, then applies object_hook.
func (d *jsonDecoder) finishObject(pairs [][2]object.Value) (object.Value, error) {
	if d.pairs != nil {
		ts := make([]object.Value, len(pairs))
		for i, p := range pairs {
			ts[i] = object.Tuple{p[0], p[1]}
		}
		l, err := object.NewList(d.c, ts)
		if err != nil {
			return nil, err
		}
		return d.c.Call(d.pairs, []object.Value{l}, nil)
	}
	if err := object.Alloc(d.c, meter.SizeDictHeader); err != nil {
		return nil, err
	}
	m := object.NewDict()
	for _, p := range pairs {
		if err := m.Set(d.c, p[0], p[1]); err != nil {
			return nil, err
		}
	}
	if d.hook != nil {
		return d.c.Call(d.hook, []object.Value{m}, nil)
	}
	return m, nil
}
