package modules

import (
	"fmt"
	"regexp/syntax"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/cowboy-chain/cowboy/pvm/meter"
	"github.com/cowboy-chain/cowboy/pvm/modules/internal/rex"
	"github.com/cowboy-chain/cowboy/pvm/object"
	"github.com/cowboy-chain/cowboy/pvm/vm"
)

// The re module on RE2 (a fork of Go's regexp in internal/rex), so matching
// time is linear in the input: no catastrophic backtracking. Python syntax is
// translated (re_translate.go); constructs that need backtracking
// (backreferences, lookaround, atomic groups, possessive quantifiers,
// conditionals) raise re.error. docs/pvm-re.md lists every difference from
// CPython.
//
// Positions: Go matches on UTF-8 bytes; every index Python code sees (pos,
// endpos, start(), end(), span()) is converted to code points.
//
// Metering: compiling costs meter.CostRegexCompile plus
// meter.CostRegexPerPatternByte per byte of pattern (once per distinct
// pattern and flags per call: module functions share a per-call cache, as
// CPython's re does). Each search costs meter.CostRegexSearch plus one cycle
// per meter.CostRegexStepsPerCycle engine steps (NFA threads run, input
// positions visited), the engine's own measure of its work; each match
// produced costs meter.CostRegexPerMatch, and built strings CostPerChar per
// character.

func init() { register(vm.ModuleDef{Name: "re", Load: loadRe}) }

// reMod is the per-call state of the module.
type reMod struct {
	errCls, patCls, matchCls, iterCls *object.Class
	cache                             map[reCacheKey]*rePattern
}

type reCacheKey struct {
	pattern string
	isBytes bool
	flags   int
}

// rePattern is a compiled pattern (re.Pattern).
type rePattern struct {
	m       *reMod
	src     object.Value // the pattern as given (str or bytes)
	text    string
	flags   int // as Pattern.flags reports
	isBytes bool
	goPat   string
	re      *rex.Regexp
	full    *rex.Regexp // (?:pattern)\z for fullmatch, compiled on first use
	groups  int
	names   []string // by group index; "" for unnamed
	index   map[string]int
	id      int64
}

// reSubject is a string being matched, with its code-point index tables.
type reSubject struct {
	s       string
	orig    object.Value
	isBytes bool
	ascii   bool
	cpOf    []int32 // byte offset -> code-point index (non-ASCII str only)
	byteOf  []int   // code-point index -> byte offset
}

// scanRange is where a scan runs: byte offsets and the code-point offsets
// Python reports.
type scanRange struct{ pos, end, cpPos, cpEnd int }

func newSubject(c object.Ctx, v object.Value, p *rePattern) (*reSubject, error) {
	switch x := v.(type) {
	case object.Str:
		if p.isBytes {
			return nil, object.Errorf(object.TypeError, "cannot use a bytes pattern on a string-like object")
		}
		s := string(x)
		sub := &reSubject{s: s, orig: v, ascii: true}
		for i := 0; i < len(s); i++ {
			if s[i] >= 0x80 {
				sub.ascii = false
				break
			}
		}
		if !sub.ascii {
			if err := object.Alloc(c, 12*uint64(len(s)+1)); err != nil {
				return nil, err
			}
			sub.cpOf = make([]int32, len(s)+1)
			sub.byteOf = make([]int, 0, len(s)+1)
			n := int32(0)
			for i := range s {
				sub.byteOf = append(sub.byteOf, i)
				sub.cpOf[i] = n
				n++
			}
			sub.cpOf[len(s)] = n
			sub.byteOf = append(sub.byteOf, len(s))
			// Continuation bytes are never match boundaries; give them the
			// index of their character for safety.
			for i := 1; i < len(s); i++ {
				if !utf8.RuneStart(s[i]) {
					sub.cpOf[i] = sub.cpOf[i-1]
				}
			}
		}
		return sub, nil
	case object.Bytes, *object.ByteArray:
		if !p.isBytes {
			return nil, object.Errorf(object.TypeError, "cannot use a string pattern on a bytes-like object")
		}
		b, _ := bytesOf(x)
		return &reSubject{s: string(b), orig: v, isBytes: true, ascii: true}, nil
	}
	return nil, object.Errorf(object.TypeError, "expected string or bytes-like object, got '%s'", object.TypeName(v))
}

// cp converts a byte offset to a code-point index.
func (s *reSubject) cp(b int) int {
	if s.ascii || b < 0 {
		return b
	}
	return int(s.cpOf[b])
}

// off converts a code-point index (already clamped) to a byte offset.
func (s *reSubject) off(i int) int {
	if s.ascii {
		return i
	}
	return s.byteOf[i]
}

// length is the subject's length in code points.
func (s *reSubject) length() int {
	if s.ascii {
		return len(s.s)
	}
	return len(s.byteOf) - 1
}

// slice returns s[from:to] (byte offsets) as a str or bytes value.
func (s *reSubject) slice(c object.Ctx, from, to int) (object.Value, error) {
	if s.isBytes {
		return newBytes(c, []byte(s.s[from:to]))
	}
	return object.NewStr(c, s.s[from:to])
}

func (m *reMod) raise(err error) error {
	se, ok := err.(*reSyntaxError)
	if !ok {
		return err
	}
	exc := object.NewException(m.errCls, object.Str(se.Error()))
	exc.Dict.Set("msg", object.Str(se.msg))
	if se.pos >= 0 {
		exc.Dict.Set("pos", object.Int(se.pos))
	} else {
		exc.Dict.Set("pos", object.None)
	}
	return object.Raise(exc)
}

// goSyntaxError turns an RE2 compile error the translator did not catch
// into a re.error with CPython's wording where there is one.
func goSyntaxError(err error) error {
	se, ok := err.(*syntax.Error)
	if !ok {
		return &reSyntaxError{msg: err.Error(), pos: -1}
	}
	switch se.Code {
	case syntax.ErrInvalidCharRange:
		return &reSyntaxError{msg: "bad character range " + se.Expr, pos: -1}
	case syntax.ErrMissingRepeatArgument:
		return &reSyntaxError{msg: "nothing to repeat", pos: -1}
	case syntax.ErrInvalidRepeatOp:
		return &reSyntaxError{msg: "multiple repeat", pos: -1}
	case syntax.ErrInvalidRepeatSize, syntax.ErrNestingDepth, syntax.ErrLarge:
		return &reSyntaxError{msg: "PVM: pattern too large for RE2 (" + string(se.Code) + ")", pos: -1}
	}
	return &reSyntaxError{msg: "PVM: " + se.Error(), pos: -1}
}

// compile returns the pattern for (pattern, flags), from the per-call cache
// or by translating and compiling it.
func (m *reMod) compile(c object.Ctx, pat object.Value, flagsV object.Value) (*rePattern, error) {
	flags := 0
	if flagsV != nil {
		f, ok := object.AsInt64(flagsV)
		if !ok {
			return nil, object.Errorf(object.TypeError, "unsupported operand type(s) for &: '%s' and 'int'", object.TypeName(flagsV))
		}
		flags = int(f)
	}
	if p, ok := pat.(*rePattern); ok {
		if flags != 0 {
			return nil, object.Errorf(object.ValueError, "cannot process flags argument with a compiled pattern")
		}
		return p, nil
	}
	var text string
	isBytes := false
	switch x := pat.(type) {
	case object.Str:
		text = string(x)
	case object.Bytes:
		text, isBytes = string(x), true
	default:
		return nil, object.Errorf(object.TypeError, "first argument must be string or compiled pattern")
	}
	key := reCacheKey{text, isBytes, flags}
	if p, ok := m.cache[key]; ok {
		return p, nil
	}
	if err := object.Charge(c, meter.CostRegexCompile+uint64(len(text))*meter.CostRegexPerPatternByte); err != nil {
		return nil, err
	}
	if flags&reFlagDebug != 0 {
		return nil, m.raise(&reSyntaxError{msg: "PVM: the DEBUG flag is not supported", pos: -1})
	}
	goPat, pyFlags, groups, names, err := translateRegex(text, flags, isBytes)
	if err != nil {
		return nil, m.raise(err)
	}
	re, err := rex.Compile(goPat)
	if err != nil {
		return nil, m.raise(goSyntaxError(err))
	}
	if err := object.Alloc(c, meter.SizeObject+uint64(len(goPat))*16); err != nil {
		return nil, err
	}
	p := &rePattern{m: m, src: pat, text: text, flags: pyFlags, isBytes: isBytes, goPat: goPat, re: re,
		groups: groups, names: make([]string, groups+1), index: names, id: c.NextID()}
	for n, i := range names {
		p.names[i] = n
	}
	if re.NumSubexp() != groups {
		return nil, m.raise(&reSyntaxError{msg: "PVM: internal error: group count mismatch", pos: -1})
	}
	m.cache[key] = p
	return p, nil
}

// search runs one search of rx on sub.s[:end] from byte offset pos and
// charges the engine's work.
func (p *rePattern) search(c object.Ctx, rx *rex.Regexp, sub *reSubject, pos, end int) ([]int, error) {
	loc, steps := rx.SubmatchIndexAt(sub.s[:end], pos)
	cost := meter.CostRegexSearch + uint64(steps)/meter.CostRegexStepsPerCycle
	if err := object.Charge(c, cost); err != nil {
		return nil, err
	}
	return loc, nil
}

// bounds parses pos and endpos (code points, clamped as CPython does) and
// returns them as byte offsets together with the code-point values.
func (sub *reSubject) bounds(posV, endV object.Value) (pos, end, cpPos, cpEnd int, err error) {
	n := sub.length()
	cpPos, cpEnd = 0, n
	if posV != nil {
		v, err := intArg("pos", posV)
		if err != nil {
			return 0, 0, 0, 0, err
		}
		switch {
		case v < 0:
			cpPos = 0
		case v > int64(n):
			cpPos = n
		default:
			cpPos = int(v)
		}
	}
	if endV != nil {
		v, err := intArg("endpos", endV)
		if err != nil {
			return 0, 0, 0, 0, err
		}
		switch {
		case v < 0:
			cpEnd = 0
		case v < int64(n):
			cpEnd = int(v)
		}
	}
	return sub.off(cpPos), sub.off(cpEnd), cpPos, cpEnd, nil
}

// eachMatch calls f for the successive matches of p in sub.s[pos:end] with
// Python 3.7+'s rule: an empty match may follow a non-empty one directly,
// but not another empty match at the same place. limit > 0 stops after that
// many matches.
func (p *rePattern) eachMatch(c object.Ctx, sub *reSubject, pos, end, limit int, f func(loc []int) error) error {
	mustAdvance := false
	n := 0
	for pos <= end {
		loc, err := p.search(c, p.re, sub, pos, end)
		if err != nil {
			return err
		}
		if loc == nil {
			return nil
		}
		if mustAdvance && loc[0] == pos && loc[1] == pos {
			// CPython would look for a non-empty match here first; RE2 has
			// no way to ask, so the search moves on (docs/pvm-re.md).
			if pos >= end {
				return nil
			}
			_, w := utf8.DecodeRuneInString(sub.s[pos:end])
			if sub.isBytes {
				w = 1
			}
			pos += w
			mustAdvance = false
			continue
		}
		if err := object.Charge(c, meter.CostRegexPerMatch); err != nil {
			return err
		}
		if err := f(loc); err != nil {
			return err
		}
		n++
		if limit > 0 && n >= limit {
			return nil
		}
		mustAdvance = loc[1] == loc[0]
		pos = loc[1]
	}
	return nil
}

// reMatch is a match (re.Match).
type reMatch struct {
	p           *rePattern
	sub         *reSubject
	loc         []int // byte offsets, -1 for groups that did not take part
	pos, endpos int   // code points, as given to the search
	id          int64
}

func (p *rePattern) newMatch(c object.Ctx, sub *reSubject, loc []int, cpPos, cpEnd int) (*reMatch, error) {
	if err := object.AllocSlots(c, meter.SizeObject+48, uint64(len(loc)), 8); err != nil {
		return nil, err
	}
	return &reMatch{p: p, sub: sub, loc: loc, pos: cpPos, endpos: cpEnd, id: c.NextID()}, nil
}

// Type implements object.Value.
func (mt *reMatch) Type() *object.Class { return mt.p.m.matchCls }

// Repr implements object.Value: <re.Match object; span=(0, 3), match='abc'>.
func (mt *reMatch) Repr(c object.Ctx) (string, error) {
	g, err := mt.groupValue(c, 0)
	if err != nil {
		return "", err
	}
	r, err := object.Repr(c, g)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("<re.Match object; span=(%d, %d), match=%s>", mt.sub.cp(mt.loc[0]), mt.sub.cp(mt.loc[1]), r), nil
}

// Truth implements object.Value.
func (mt *reMatch) Truth(object.Ctx) (bool, error) { return true, nil }

// Hash implements object.Value.
func (mt *reMatch) Hash(object.Ctx) (int64, error) { return mt.id, nil }

func (mt *reMatch) groupValue(c object.Ctx, g int) (object.Value, error) {
	if mt.loc[2*g] < 0 {
		return object.None, nil
	}
	return mt.sub.slice(c, mt.loc[2*g], mt.loc[2*g+1])
}

// groupIndex resolves a group argument (int or name).
func (mt *reMatch) groupIndex(v object.Value) (int, error) {
	if s, ok := v.(object.Str); ok {
		if i, ok := mt.p.index[string(s)]; ok {
			return i, nil
		}
		return 0, object.Errorf(object.IndexError, "no such group")
	}
	i, ok := object.AsInt64(v)
	if !ok || i < 0 || i > int64(mt.p.groups) {
		return 0, object.Errorf(object.IndexError, "no such group")
	}
	return int(i), nil
}

func (mt *reMatch) lastIndex() int {
	best := -1
	for g := 1; g <= mt.p.groups; g++ {
		s, e := mt.loc[2*g], mt.loc[2*g+1]
		if s < 0 {
			continue
		}
		if best < 0 || e > mt.loc[2*best+1] || (e == mt.loc[2*best+1] && s < mt.loc[2*best]) {
			best = g
		}
	}
	return best
}

// GetItem implements object.ItemGetter: m[g] is m.group(g).
func (mt *reMatch) GetItem(c object.Ctx, i object.Value) (object.Value, error) {
	g, err := mt.groupIndex(i)
	if err != nil {
		return nil, err
	}
	return mt.groupValue(c, g)
}

// GetAttr implements object.AttrGetter for the data attributes.
func (mt *reMatch) GetAttr(c object.Ctx, name string) (object.Value, bool, error) {
	switch name {
	case "string":
		return mt.sub.orig, true, nil
	case "re":
		return mt.p, true, nil
	case "pos":
		return object.Int(mt.pos), true, nil
	case "endpos":
		return object.Int(mt.endpos), true, nil
	case "lastindex":
		if li := mt.lastIndex(); li > 0 {
			return object.Int(li), true, nil
		}
		return object.None, true, nil
	case "lastgroup":
		if li := mt.lastIndex(); li > 0 && mt.p.names[li] != "" {
			return object.Str(mt.p.names[li]), true, nil
		}
		return object.None, true, nil
	}
	return nil, false, nil
}

// Type implements object.Value.
func (p *rePattern) Type() *object.Class { return p.m.patCls }

// Repr implements object.Value: re.compile('...', re.FLAG|...).
func (p *rePattern) Repr(c object.Ctx) (string, error) {
	r, err := object.Repr(c, p.src)
	if err != nil {
		return "", err
	}
	var fl []string
	for _, f := range []struct {
		bit  int
		name string
	}{{reFlagTemplate, "re.TEMPLATE"}, {reFlagIgnoreCase, "re.IGNORECASE"}, {reFlagLocale, "re.LOCALE"}, {reFlagMultiline, "re.MULTILINE"},
		{reFlagDotAll, "re.DOTALL"}, {reFlagVerbose, "re.VERBOSE"}, {reFlagDebug, "re.DEBUG"}, {reFlagASCII, "re.ASCII"}} {
		if p.flags&f.bit != 0 {
			fl = append(fl, f.name)
		}
	}
	if len(fl) == 0 {
		return "re.compile(" + r + ")", nil
	}
	return "re.compile(" + r + ", " + strings.Join(fl, "|") + ")", nil
}

// Truth implements object.Value.
func (p *rePattern) Truth(object.Ctx) (bool, error) { return true, nil }

// Hash implements object.Value.
func (p *rePattern) Hash(c object.Ctx) (int64, error) {
	h, err := object.HashOf(c, p.src)
	return h ^ int64(p.flags), err
}

// GetAttr implements object.AttrGetter for the data attributes.
func (p *rePattern) GetAttr(c object.Ctx, name string) (object.Value, bool, error) {
	switch name {
	case "pattern":
		return p.src, true, nil
	case "flags":
		return object.Int(p.flags), true, nil
	case "groups":
		return object.Int(p.groups), true, nil
	case "groupindex":
		d := object.NewDict()
		keys := make([]string, 0, len(p.index))
		for k := range p.index {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool { return p.index[keys[i]] < p.index[keys[j]] })
		for _, k := range keys {
			if err := d.Set(c, object.Str(k), object.Int(p.index[k])); err != nil {
				return nil, false, err
			}
		}
		return d, true, nil
	}
	return nil, false, nil
}

// reIter is the iterator finditer returns: matches are found lazily.
type reIter struct {
	p            *rePattern
	sub          *reSubject
	pos, end     int // byte offsets
	cpPos, cpEnd int
	mustAdvance  bool
	done         bool
}

// Type implements object.Value.
func (it *reIter) Type() *object.Class { return it.p.m.iterCls }

// Repr implements object.Value.
func (it *reIter) Repr(object.Ctx) (string, error) { return "<callable_iterator object>", nil }

// Truth implements object.Value.
func (it *reIter) Truth(object.Ctx) (bool, error) { return true, nil }

// Hash implements object.Value.
func (it *reIter) Hash(object.Ctx) (int64, error) { return int64(it.pos), nil }

// Next implements object.Iterator, one step of eachMatch.
func (it *reIter) Next(c object.Ctx) (object.Value, bool, error) {
	for !it.done && it.pos <= it.end {
		loc, err := it.p.search(c, it.p.re, it.sub, it.pos, it.end)
		if err != nil {
			return nil, false, err
		}
		if loc == nil {
			break
		}
		if it.mustAdvance && loc[0] == it.pos && loc[1] == it.pos {
			if it.pos >= it.end {
				break
			}
			_, w := utf8.DecodeRuneInString(it.sub.s[it.pos:it.end])
			if it.sub.isBytes {
				w = 1
			}
			it.pos += w
			it.mustAdvance = false
			continue
		}
		if err := object.Charge(c, meter.CostRegexPerMatch); err != nil {
			return nil, false, err
		}
		it.mustAdvance = loc[1] == loc[0]
		it.pos = loc[1]
		mt, err := it.p.newMatch(c, it.sub, loc, it.cpPos, it.cpEnd)
		return mt, err == nil, err
	}
	it.done = true
	return nil, false, nil
}

func loadRe(t *vm.Thread) (*vm.Module, error) {
	md := vm.NewModule("re")
	m := &reMod{
		errCls:   errorClass("re", "error", object.ExceptionClass),
		patCls:   nativeClass("re", "Pattern"),
		matchCls: nativeClass("re", "Match"),
		iterCls:  nativeClass("builtins", "callable_iterator"),
		cache:    map[reCacheKey]*rePattern{},
	}
	g := md.Globals
	g.Set("error", m.errCls)
	g.Set("Pattern", m.patCls)
	g.Set("Match", m.matchCls)
	if _, err := newRegexFlag(t, g); err != nil {
		return nil, err
	}
	m.addPatternMethods()
	m.addMatchMethods()

	// Module functions: compile the pattern (cached) and call the method.
	withPattern := func(fname, method string, names ...string) {
		addFunc(g, fname, func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
			a, err := object.UnpackArgs(fname, args, kw, append([]string{"pattern"}, append(names, "flags?")...)...)
			if err != nil {
				return nil, err
			}
			p, err := m.compile(c, a[0], a[len(a)-1])
			if err != nil {
				return nil, err
			}
			meth, _ := m.patCls.Dict.Get(method)
			var rest []object.Value
			for _, v := range a[1 : len(a)-1] {
				if v == nil {
					break
				}
				rest = append(rest, v)
			}
			return meth.(*object.Builtin).Fn(c, append([]object.Value{p}, rest...), nil)
		})
	}
	withPattern("search", "search", "string")
	withPattern("match", "match", "string")
	withPattern("fullmatch", "fullmatch", "string")
	withPattern("findall", "findall", "string")
	withPattern("finditer", "finditer", "string")
	withPattern("split", "split", "string", "maxsplit?")
	withPattern("sub", "sub", "repl", "string", "count?")
	withPattern("subn", "subn", "repl", "string", "count?")
	addFunc(g, "compile", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		a, err := object.UnpackArgs("compile", args, kw, "pattern", "flags?")
		if err != nil {
			return nil, err
		}
		return m.compile(c, a[0], a[1])
	})
	addFunc(g, "purge", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		m.cache = map[reCacheKey]*rePattern{}
		return object.None, nil
	})
	addFunc(g, "escape", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		a, err := object.UnpackArgs("escape", args, kw, "pattern")
		if err != nil {
			return nil, err
		}
		var s string
		isBytes := false
		switch x := a[0].(type) {
		case object.Str:
			s = string(x)
		case object.Bytes:
			s, isBytes = string(x), true
		default:
			return nil, object.Errorf(object.TypeError, "expected string or bytes-like object, got '%s'", object.TypeName(a[0]))
		}
		if err := object.Charge(c, uint64(len(s))*meter.CostPerChar); err != nil {
			return nil, err
		}
		var b strings.Builder
		for i := 0; i < len(s); i++ {
			if strings.IndexByte("()[]{}?*+-|^$\\.&~# \t\n\r\v\f", s[i]) >= 0 {
				b.WriteByte('\\')
			}
			b.WriteByte(s[i])
		}
		if isBytes {
			return newBytes(c, []byte(b.String()))
		}
		return object.NewStr(c, b.String())
	})
	return md, nil
}

func (m *reMod) addPatternMethods() {
	k := m.patCls
	self := func(args []object.Value, name string) (*rePattern, error) {
		if len(args) > 0 {
			if p, ok := args[0].(*rePattern); ok {
				return p, nil
			}
		}
		return nil, object.Errorf(object.TypeError, "descriptor '%s' for 're.Pattern' objects doesn't apply to this object", name)
	}
	// scanArgs reads the (string, pos, endpos) arguments that search,
	// match, fullmatch, findall and finditer share.
	scanArgs := func(c object.Ctx, args []object.Value, kw []object.Kw, name string) (*rePattern, *reSubject, scanRange, error) {
		p, err := self(args, name)
		if err != nil {
			return nil, nil, scanRange{}, err
		}
		a, err := object.UnpackArgs(name, args[1:], kw, "string", "pos?", "endpos?")
		if err != nil {
			return nil, nil, scanRange{}, err
		}
		sub, err := newSubject(c, a[0], p)
		if err != nil {
			return nil, nil, scanRange{}, err
		}
		var r scanRange
		r.pos, r.end, r.cpPos, r.cpEnd, err = sub.bounds(a[1], a[2])
		return p, sub, r, err
	}
	// searchMethod implements search, match and fullmatch.
	searchMethod := func(name string) goFunc {
		return func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
			p, sub, r, err := scanArgs(c, args, kw, name)
			if err != nil {
				return nil, err
			}
			pos, end, cpPos, cpEnd := r.pos, r.end, r.cpPos, r.cpEnd
			if end < pos {
				return object.None, nil
			}
			rx := p.re
			if name == "fullmatch" {
				if p.full == nil {
					full, err := rex.Compile("(?:" + p.goPat + `)\z`)
					if err != nil {
						return nil, m.raise(goSyntaxError(err))
					}
					p.full = full
				}
				rx = p.full
			}
			loc, err := p.search(c, rx, sub, pos, end)
			if err != nil || loc == nil || (name != "search" && loc[0] != pos) {
				return object.None, err
			}
			return p.newMatch(c, sub, loc, cpPos, cpEnd)
		}
	}
	for _, n := range []string{"search", "match", "fullmatch"} {
		addMethod(k, n, searchMethod(n))
	}
	addMethod(k, "findall", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		p, sub, r, err := scanArgs(c, args, kw, "findall")
		if err != nil {
			return nil, err
		}
		pos, end := r.pos, r.end
		var out []object.Value
		empty, _ := sub.slice(c, 0, 0)
		err = p.eachMatch(c, sub, pos, end, 0, func(loc []int) error {
			item := func(g int) (object.Value, error) {
				if loc[2*g] < 0 {
					return empty, nil
				}
				return sub.slice(c, loc[2*g], loc[2*g+1])
			}
			switch p.groups {
			case 0, 1:
				v, err := item(p.groups)
				if err != nil {
					return err
				}
				out = append(out, v)
			default:
				tu := make(object.Tuple, p.groups)
				for g := 1; g <= p.groups; g++ {
					if tu[g-1], err = item(g); err != nil {
						return err
					}
				}
				out = append(out, tu)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		return object.NewList(c, out)
	})
	addMethod(k, "finditer", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		p, sub, r, err := scanArgs(c, args, kw, "finditer")
		if err != nil {
			return nil, err
		}
		pos, end, cpPos, cpEnd := r.pos, r.end, r.cpPos, r.cpEnd
		return &reIter{p: p, sub: sub, pos: pos, end: end, cpPos: cpPos, cpEnd: cpEnd}, nil
	})
	addMethod(k, "split", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		p, err := self(args, "split")
		if err != nil {
			return nil, err
		}
		a, err := object.UnpackArgs("split", args[1:], kw, "string", "maxsplit?")
		if err != nil {
			return nil, err
		}
		sub, err := newSubject(c, a[0], p)
		if err != nil {
			return nil, err
		}
		limit := 0
		if a[1] != nil {
			n, err := intArg("maxsplit", a[1])
			if err != nil {
				return nil, err
			}
			if n < 0 {
				l, err := object.NewList(c, []object.Value{sub.orig})
				return l, err
			}
			limit = int(n)
		}
		var out []object.Value
		last := 0
		err = p.eachMatch(c, sub, 0, len(sub.s), limit, func(loc []int) error {
			v, err := sub.slice(c, last, loc[0])
			if err != nil {
				return err
			}
			out = append(out, v)
			for g := 1; g <= p.groups; g++ {
				gv := object.Value(object.None)
				if loc[2*g] >= 0 {
					if gv, err = sub.slice(c, loc[2*g], loc[2*g+1]); err != nil {
						return err
					}
				}
				out = append(out, gv)
			}
			last = loc[1]
			return nil
		})
		if err != nil {
			return nil, err
		}
		v, err := sub.slice(c, last, len(sub.s))
		if err != nil {
			return nil, err
		}
		return object.NewList(c, append(out, v))
	})
	subMethod := func(name string, withCount bool) goFunc {
		return func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
			p, err := self(args, name)
			if err != nil {
				return nil, err
			}
			a, err := object.UnpackArgs(name, args[1:], kw, "repl", "string", "count?")
			if err != nil {
				return nil, err
			}
			sub, err := newSubject(c, a[1], p)
			if err != nil {
				return nil, err
			}
			limit := 0
			if a[2] != nil {
				n, err := intArg("count", a[2])
				if err != nil {
					return nil, err
				}
				limit = int(n)
				if n < 0 {
					limit = -1
				}
			}
			var tmpl []reTmplPiece
			callable := false
			switch r := a[0].(type) {
			case object.Str:
				if p.isBytes {
					return nil, object.Errorf(object.TypeError, "expected a bytes-like object, str found")
				}
				if tmpl, err = p.parseTemplate(string(r)); err != nil {
					return nil, err
				}
			case object.Bytes:
				if !p.isBytes {
					return nil, object.Errorf(object.TypeError, "expected str instance, bytes found")
				}
				if tmpl, err = p.parseTemplate(string(r)); err != nil {
					return nil, err
				}
			default:
				callable = true
			}
			var b strings.Builder
			last, n, charged := 0, 0, 0
			if limit >= 0 {
				err = p.eachMatch(c, sub, 0, len(sub.s), limit, func(loc []int) error {
					b.WriteString(sub.s[last:loc[0]])
					if callable {
						mt, err := p.newMatch(c, sub, loc, 0, sub.length())
						if err != nil {
							return err
						}
						r, err := c.Call(a[0], []object.Value{mt}, nil)
						if err != nil {
							return err
						}
						switch x := r.(type) {
						case object.Str:
							if p.isBytes {
								return object.Errorf(object.TypeError, "expected a bytes-like object, str found")
							}
							b.WriteString(string(x))
						case object.Bytes:
							if !p.isBytes {
								return object.Errorf(object.TypeError, "expected str instance, bytes found")
							}
							b.WriteString(string(x))
						default:
							if p.isBytes {
								return object.Errorf(object.TypeError, "expected a bytes-like object, %s found", object.TypeName(r))
							}
							return object.Errorf(object.TypeError, "expected str instance, %s found", object.TypeName(r))
						}
					} else {
						expandTemplate(&b, tmpl, sub.s, loc)
					}
					grown := uint64(b.Len() - charged)
					charged = b.Len()
					if err := object.Charge(c, grown*meter.CostPerChar); err != nil {
						return err
					}
					if err := object.Alloc(c, grown); err != nil {
						return err
					}
					last = loc[1]
					n++
					return nil
				})
				if err != nil {
					return nil, err
				}
			}
			b.WriteString(sub.s[last:])
			var res object.Value
			if p.isBytes {
				res, err = newBytes(c, []byte(b.String()))
			} else {
				res, err = object.NewStr(c, b.String())
			}
			if err != nil || !withCount {
				return res, err
			}
			return object.Tuple{res, object.Int(n)}, nil
		}
	}
	addMethod(k, "sub", subMethod("sub", false))
	addMethod(k, "subn", subMethod("subn", true))
}

// reTmplPiece is a literal or a group reference of a sub() template.
type reTmplPiece struct {
	lit   string
	group int // -1 for a literal
}

// parseTemplate parses a replacement template: \1, \g<1>, \g<name>, the
// standard escapes, and literal text.
func (p *rePattern) parseTemplate(s string) ([]reTmplPiece, error) {
	src := []rune(s)
	var out []reTmplPiece
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			out = append(out, reTmplPiece{lit: lit.String(), group: -1})
			lit.Reset()
		}
	}
	group := func(g int) { flush(); out = append(out, reTmplPiece{group: g}) }
	fail := func(msg string, pos int) error { return p.m.raise(&reSyntaxError{msg: msg, pos: pos}) }
	for i := 0; i < len(src); i++ {
		r := src[i]
		if r != '\\' {
			lit.WriteRune(r)
			continue
		}
		start := i
		i++
		if i >= len(src) {
			return nil, fail("bad escape (end of pattern)", start)
		}
		c := src[i]
		switch {
		case c == 'g':
			if i+1 >= len(src) || src[i+1] != '<' {
				return nil, fail("missing <", i+1)
			}
			j := i + 2
			for j < len(src) && src[j] != '>' {
				j++
			}
			if j >= len(src) {
				return nil, fail("missing >, unterminated name", i+2)
			}
			name := string(src[i+2 : j])
			if name == "" {
				return nil, fail("missing group name", i+2)
			}
			g := -1
			if n, ok := parseDecimal(name); ok {
				if n > p.groups {
					return nil, fail(fmt.Sprintf("invalid group reference %d", n), i+2)
				}
				g = n
			} else if !isIdentifier(name) {
				return nil, fail(fmt.Sprintf("bad character in group name '%s'", name), i+2)
			} else if gi, ok := p.index[name]; ok {
				g = gi
			} else {
				return nil, object.Errorf(object.IndexError, "unknown group name '%s'", name)
			}
			group(g)
			i = j
		case c == '0':
			v, j := 0, i+1
			for j < len(src) && j < i+3 && isOctal(src[j]) {
				v = v*8 + int(src[j]-'0')
				j++
			}
			lit.WriteRune(rune(v))
			i = j - 1
		case c >= '1' && c <= '9':
			if c <= '3' && i+2 < len(src) && isOctal(src[i+1]) && isOctal(src[i+2]) && isOctal(c) {
				v := int(c-'0')*64 + int(src[i+1]-'0')*8 + int(src[i+2]-'0')
				if v > 0o377 {
					return nil, fail(fmt.Sprintf(`octal escape value \%s outside of range 0-0o377`, string(src[i:i+3])), start)
				}
				lit.WriteRune(rune(v))
				i += 2
				continue
			}
			g := int(c - '0')
			if i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9' {
				g = g*10 + int(src[i+1]-'0')
				i++
			}
			if g > p.groups {
				return nil, fail(fmt.Sprintf("invalid group reference %d", g), start+1)
			}
			group(g)
		default:
			switch c {
			case 'n':
				lit.WriteByte('\n')
			case 't':
				lit.WriteByte('\t')
			case 'r':
				lit.WriteByte('\r')
			case 'f':
				lit.WriteByte('\f')
			case 'v':
				lit.WriteByte('\v')
			case 'a':
				lit.WriteByte('\a')
			case 'b':
				lit.WriteByte('\b')
			case '\\':
				lit.WriteByte('\\')
			default:
				if isASCIILetter(c) {
					return nil, fail(`bad escape \`+string(c), start)
				}
				lit.WriteByte('\\')
				lit.WriteRune(c)
			}
		}
	}
	flush()
	return out, nil
}

func parseDecimal(s string) (int, bool) {
	n := 0
	for _, r := range s {
		if r < '0' || r > '9' {
			return 0, false
		}
		n = n*10 + int(r-'0')
		if n > 1<<20 {
			return n, true
		}
	}
	return n, s != ""
}

func expandTemplate(b *strings.Builder, tmpl []reTmplPiece, s string, loc []int) {
	for _, t := range tmpl {
		if t.group < 0 {
			b.WriteString(t.lit)
		} else if loc[2*t.group] >= 0 {
			b.WriteString(s[loc[2*t.group]:loc[2*t.group+1]])
		}
	}
}

func (m *reMod) addMatchMethods() {
	k := m.matchCls
	self := func(args []object.Value, name string) (*reMatch, error) {
		if len(args) > 0 {
			if mt, ok := args[0].(*reMatch); ok {
				return mt, nil
			}
		}
		return nil, object.Errorf(object.TypeError, "descriptor '%s' for 're.Match' objects doesn't apply to this object", name)
	}
	addMethod(k, "group", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		mt, err := self(args, "group")
		if err != nil {
			return nil, err
		}
		if len(args) == 1 {
			return mt.groupValue(c, 0)
		}
		out := make(object.Tuple, len(args)-1)
		for i, a := range args[1:] {
			g, err := mt.groupIndex(a)
			if err != nil {
				return nil, err
			}
			if out[i], err = mt.groupValue(c, g); err != nil {
				return nil, err
			}
		}
		if len(out) == 1 {
			return out[0], nil
		}
		return out, nil
	})
	addMethod(k, "__getitem__", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		mt, err := self(args, "__getitem__")
		if err != nil {
			return nil, err
		}
		if err := object.ArgCount("__getitem__", args[1:], 1, 1); err != nil {
			return nil, err
		}
		g, err := mt.groupIndex(args[1])
		if err != nil {
			return nil, err
		}
		return mt.groupValue(c, g)
	})
	defaults := func(name string, args []object.Value, kw []object.Kw) (*reMatch, object.Value, error) {
		mt, err := self(args, name)
		if err != nil {
			return nil, nil, err
		}
		a, err := object.UnpackArgs(name, args[1:], kw, "default?")
		if err != nil {
			return nil, nil, err
		}
		if a[0] == nil {
			a[0] = object.None
		}
		return mt, a[0], nil
	}
	addMethod(k, "groups", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		mt, def, err := defaults("groups", args, kw)
		if err != nil {
			return nil, err
		}
		out := make(object.Tuple, mt.p.groups)
		for g := 1; g <= mt.p.groups; g++ {
			if mt.loc[2*g] < 0 {
				out[g-1] = def
			} else if out[g-1], err = mt.groupValue(c, g); err != nil {
				return nil, err
			}
		}
		return out, nil
	})
	addMethod(k, "groupdict", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		mt, def, err := defaults("groupdict", args, kw)
		if err != nil {
			return nil, err
		}
		d := object.NewDict()
		for g := 1; g <= mt.p.groups; g++ {
			if mt.p.names[g] == "" {
				continue
			}
			v := def
			if mt.loc[2*g] >= 0 {
				if v, err = mt.groupValue(c, g); err != nil {
					return nil, err
				}
			}
			if err := d.Set(c, object.Str(mt.p.names[g]), v); err != nil {
				return nil, err
			}
		}
		return d, nil
	})
	position := func(name string, which int) goFunc {
		return func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
			mt, err := self(args, name)
			if err != nil {
				return nil, err
			}
			if err := object.ArgCount(name, args[1:], 0, 1); err != nil {
				return nil, err
			}
			g := 0
			if len(args) == 2 {
				if g, err = mt.groupIndex(args[1]); err != nil {
					return nil, err
				}
			}
			s, e := mt.sub.cp(mt.loc[2*g]), mt.sub.cp(mt.loc[2*g+1])
			switch which {
			case 0:
				return object.Int(s), nil
			case 1:
				return object.Int(e), nil
			}
			return object.Tuple{object.Int(s), object.Int(e)}, nil
		}
	}
	addMethod(k, "start", position("start", 0))
	addMethod(k, "end", position("end", 1))
	addMethod(k, "span", position("span", 2))
	addMethod(k, "expand", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		mt, err := self(args, "expand")
		if err != nil {
			return nil, err
		}
		if err := object.ArgCount("expand", args[1:], 1, 1); err != nil {
			return nil, err
		}
		var text string
		switch x := args[1].(type) {
		case object.Str:
			text = string(x)
		case object.Bytes:
			text = string(x)
		default:
			return nil, object.Errorf(object.TypeError, "expected str instance, %s found", object.TypeName(args[1]))
		}
		tmpl, err := mt.p.parseTemplate(text)
		if err != nil {
			return nil, err
		}
		var b strings.Builder
		expandTemplate(&b, tmpl, mt.sub.s, mt.loc)
		if mt.sub.isBytes {
			return newBytes(c, []byte(b.String()))
		}
		return object.NewStr(c, b.String())
	})
}
