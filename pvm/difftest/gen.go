package difftest

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
)

// A generated program is a fixed prelude followed by independent units.
// Every unit is a top-level statement wrapped in try/except, so a failing
// unit prints the exception's type and the program goes on; that keeps one
// difference from hiding the rest and lets Minimize drop units freely.
//
// The generator stays inside the PVM's contract (pvm/doc.go, docs/decisions.md):
//   - sets are never iterated in an order-dependent way (the PVM iterates
//     sets in insertion order, CPython in hash order): show() prints them
//     sorted, and iteration over a set goes through sorted();
//   - no id(), no hash() of str/bytes, no `is` on values;
//   - functions whose CPython result comes from the platform libm (exp,
//     sin, float ** float, ...) are printed through approx(), 12 significant
//     digits, since the PVM is correctly rounded and glibc is not always;
//   - ints stay well below the 4096-bit cap, and an OverflowError from the
//     cap is printed as "CAP" so the runner can set the program aside;
//   - no \b and no $ in regular expressions (ASCII word boundaries, and
//     $ only at the very end, in the PVM: docs/pvm-re.md);
//   - text codecs are UTF-8 with errors='strict' only (pvm/object/codec.go);
//   - no deep recursion (the PVM allows 32 frames), no unbounded loops.

// Prelude is the fixed start of every program.
const Prelude = `import math, json, re, struct, hashlib, decimal, functools, itertools, collections, operator, asyncio
def show(x):
    if isinstance(x, (set, frozenset)):
        return type(x).__name__ + '(' + ', '.join(sorted([show(e) for e in x])) + ')'
    if isinstance(x, list):
        return '[' + ', '.join([show(e) for e in x]) + ']'
    if isinstance(x, tuple):
        return '(' + ', '.join([show(e) for e in x]) + (',' if len(x) == 1 else '') + ')'
    if isinstance(x, dict):
        return '{' + ', '.join([show(k) + ': ' + show(v) for k, v in x.items()]) + '}'
    return repr(x)
def approx(x):
    if isinstance(x, float):
        return format(x, '.12g')
    return show(x)
def err(e):
    n = type(e).__name__
    if n == 'OverflowError' and '-bit limit' in str(e):
        n = 'CAP'
    print('!', n)
`

// typ is the static type of a generated expression.
type typ int

const (
	tInt typ = iota
	tFloat
	tStr
	tBytes
	tByteArray
	tList // list of ints
	tStrList
	tTuple
	tDict // str -> int
	tSet  // set of ints
	tRange
	tBool
	nTypes
)

// gen builds one program; all randomness comes from r, seeded by the
// program's seed, so a seed names a program.
type gen struct {
	r     *rand.Rand
	vars  [nTypes][]string
	nvar  int
	units []string
	depth int
}

// Generate returns the program for seed: Prelude then units.
func Generate(seed uint64, units int) Program {
	g := &gen{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
	// Start with one variable of each type so expressions have operands.
	for t := typ(0); t < nTypes; t++ {
		g.assign(t, true)
	}
	for len(g.units) < units {
		g.unit()
	}
	return Program{Seed: seed, Units: g.units}
}

// Program is a generated program: the prelude plus independent units.
type Program struct {
	Seed  uint64
	Units []string
}

// Source is the program text.
func (p Program) Source() string { return Source(p.Units) }

// Source joins a prelude and units into a program.
func Source(units []string) string {
	var b strings.Builder
	b.WriteString(Prelude)
	for _, u := range units {
		b.WriteString(u)
		if !strings.HasSuffix(u, "\n") {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func (g *gen) n(k int) int             { return g.r.IntN(k) }
func (g *gen) chance(p int) bool       { return g.r.IntN(100) < p }
func (g *gen) pick(s ...string) string { return s[g.r.IntN(len(s))] }

// wrap makes body (lines without indentation) a unit that reports errors.
func wrap(body ...string) string {
	var b strings.Builder
	b.WriteString("try:\n")
	for _, l := range body {
		for _, ll := range strings.Split(l, "\n") {
			b.WriteString("    " + ll + "\n")
		}
	}
	b.WriteString("except Exception as e:\n    err(e)\n")
	return b.String()
}

func (g *gen) emit(body ...string) { g.units = append(g.units, wrap(body...)) }

func (g *gen) varOf(t typ) string {
	vs := g.vars[t]
	return vs[g.n(len(vs))]
}

// assign defines a new variable of type t (or reassigns one).
func (g *gen) assign(t typ, fresh bool) {
	name := ""
	if fresh || len(g.vars[t]) < 3 && g.chance(50) {
		name = fmt.Sprintf("v%d", g.nvar)
		g.nvar++
	} else {
		name = g.varOf(t)
	}
	e := g.literal(t)
	if !fresh {
		e = g.expr(t, 2)
	}
	g.emit(name + " = " + e)
	if fresh || !contains(g.vars[t], name) {
		g.vars[t] = append(g.vars[t], name)
	}
}

func contains(s []string, x string) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// ---- literals ----

func (g *gen) intLit() string {
	switch g.n(10) {
	case 0, 1, 2, 3:
		return strconv.Itoa(g.n(41) - 20)
	case 4:
		return strconv.Itoa(g.n(2001) - 1000)
	case 5: // big
		bits := 60 + g.n(80)
		v := fmt.Sprintf("%d", g.r.Int64())
		s := g.pick("", "-")
		return fmt.Sprintf("(%s2**%d + %s)", s, bits, v)
	case 6:
		return g.pick("0x1f", "0o17", "0b1011", "1_000_000", "-0xFF", "0", "-1", "255", "256", "65535")
	case 7:
		return g.pick("(2**63)", "(-2**63)", "(2**64 - 1)", "(-(2**63) - 1)", "(10**20)", "(-10**20)", "(2**100)", "(3**50)")
	default:
		return strconv.Itoa(g.n(11))
	}
}

func (g *gen) floatLit() string {
	switch g.n(8) {
	case 0:
		return g.pick("float('inf')", "float('-inf')", "float('nan')", "-0.0", "0.0", "math.inf", "-math.inf")
	case 1:
		return g.pick("1e300", "1e-300", "5e-324", "1.7976931348623157e308", "2.2250738585072014e-308", "1e16", "123456789.123")
	case 2:
		return g.pick("0.1", "0.2", "0.3", "1.5", "2.5", "-2.5", "0.5", "3.14159", "1/3", "2/3", "-7.25")
	default:
		return fmt.Sprintf("%d.%d", g.n(200)-100, g.n(1000))
	}
}

var alphabet = []string{"a", "b", "c", "A", "Z", " ", "x", "y", "1", "0", "-", "_", ",", ".", "é", "ß", "İ", "Σ", "ς", "ǅ", "ﬁ", "\\t", "\\n", "'", "\"", "\\\\", "%", "{", "}", "ä", "Ω", "ı", "ŉ"}

func (g *gen) strLit() string {
	switch g.n(6) {
	case 0:
		return g.pick("''", "'abc'", "'Hello World'", "'  padded  '", "'a,b,,c'", "'1234'", "'-42'", "'3.5'", "'x_y_z'", "'MiXeD cAsE'", "'tab\\there'", "'line1\\nline2\\r\\nline3'")
	default:
		n := g.n(9)
		var b strings.Builder
		for i := 0; i < n; i++ {
			ch := alphabet[g.n(len(alphabet))]
			if ch == "'" {
				ch = "\\'"
			}
			b.WriteString(ch)
		}
		return "'" + b.String() + "'"
	}
}

func (g *gen) bytesLit() string {
	switch g.n(4) {
	case 0:
		return g.pick("b''", "b'abc'", "b'\\x00\\xff\\x80'", "b'Hello, World'", "b'  x  '", "b'a-b-c'", "bytes(range(5))", "bytes(3)")
	default:
		n := g.n(8)
		var b strings.Builder
		for i := 0; i < n; i++ {
			switch g.n(3) {
			case 0:
				fmt.Fprintf(&b, "\\x%02x", g.n(256))
			default:
				b.WriteByte("abcxyzABC019 -_."[g.n(16)])
			}
		}
		return "b'" + b.String() + "'"
	}
}

func (g *gen) literal(t typ) string {
	switch t {
	case tInt:
		return g.intLit()
	case tFloat:
		return g.floatLit()
	case tStr:
		return g.strLit()
	case tBytes:
		return g.bytesLit()
	case tByteArray:
		return "bytearray(" + g.bytesLit() + ")"
	case tList:
		return g.seqLit("[", "]", g.intLit)
	case tStrList:
		return g.seqLit("[", "]", g.strLit)
	case tTuple:
		return g.seqLit("(", ",)", g.intLit)
	case tDict:
		n := g.n(5)
		parts := make([]string, n)
		for i := range parts {
			parts[i] = fmt.Sprintf("%s: %s", g.strLit(), g.intLit())
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case tSet:
		if g.chance(15) {
			return "set()"
		}
		return g.seqLit("{", "}", g.intLit)
	case tRange:
		return fmt.Sprintf("range(%d, %d, %d)", g.n(21)-10, g.n(41)-20, g.pick1(1, 2, 3, -1, -2, 5))
	case tBool:
		return g.pick("True", "False")
	}
	panic("difftest: unknown type")
}

func (g *gen) pick1(xs ...int) int { return xs[g.n(len(xs))] }

func (g *gen) seqLit(open, close string, el func() string) string {
	n := 1 + g.n(6)
	parts := make([]string, n)
	for i := range parts {
		parts[i] = el()
	}
	return open + strings.Join(parts, ", ") + close
}

// ---- expressions ----

// expr is an expression of type t, nested at most depth.
func (g *gen) expr(t typ, depth int) string {
	if depth <= 0 || g.chance(25) {
		if len(g.vars[t]) > 0 && g.chance(65) {
			return g.varOf(t)
		}
		return g.literal(t)
	}
	d := depth - 1
	switch t {
	case tInt:
		return g.intExpr(d)
	case tFloat:
		return g.floatExpr(d)
	case tStr:
		return g.strExpr(d)
	case tBytes:
		return g.bytesExpr(d)
	case tByteArray:
		return "bytearray(" + g.bytesExpr(d) + ")"
	case tList:
		return g.listExpr(d)
	case tStrList:
		return g.strListExpr(d)
	case tTuple:
		return "tuple(" + g.listExpr(d) + ")"
	case tDict:
		return g.dictExpr(d)
	case tSet:
		return g.setExpr(d)
	case tRange:
		return fmt.Sprintf("range(%s, %s, %s)", g.smallInt(), g.smallInt(), g.pick("1", "2", "-1", "3", "-3"))
	case tBool:
		return g.boolExpr(d)
	}
	panic("difftest: unknown type")
}

func (g *gen) smallInt() string { return strconv.Itoa(g.n(25) - 12) }

func (g *gen) intExpr(d int) string {
	a := func() string { return g.expr(tInt, d) }
	switch g.n(22) {
	case 0, 1, 2, 3:
		return fmt.Sprintf("(%s %s %s)", a(), g.pick("+", "-", "*", "//", "%", "&", "|", "^"), a())
	case 4:
		return fmt.Sprintf("(%s ** %d)", g.intLit(), g.n(13))
	case 5:
		return fmt.Sprintf("(%s %s %d)", a(), g.pick("<<", ">>"), g.n(130))
	case 6:
		return fmt.Sprintf("%s(%s)", g.pick("-", "~", "abs", "+"), a())
	case 7:
		return fmt.Sprintf("len(%s)", g.expr(g.pickSeq(), d))
	case 8:
		return fmt.Sprintf("pow(%s, %s, %s)", a(), g.pick("-1", "2", "3", "65537", g.smallInt()), a())
	case 9:
		return fmt.Sprintf("divmod(%s, %s)[%d]", a(), a(), g.n(2))
	case 10:
		return fmt.Sprintf("(%s).%s()", a(), g.pick("bit_length", "bit_count", "__index__", "conjugate"))
	case 11:
		return fmt.Sprintf("int(%s)", g.pick(g.expr(tFloat, d), g.expr(tStr, d), g.expr(tBool, d)))
	case 12:
		base := g.pick1(0, 2, 8, 10, 16, 36, 7)
		return fmt.Sprintf("int(%s, %d)", g.pick("'0x1F'", "'-0b101'", "' 12_3 '", "'zz'", "'0o17'", "'+7'", "'1__2'", g.expr(tStr, d)), base)
	case 13:
		return fmt.Sprintf("%s(%s)", g.pick("sum", "min", "max", "len"), g.expr(tList, d))
	case 14:
		return fmt.Sprintf("round(%s)", g.expr(tFloat, d))
	case 15:
		return fmt.Sprintf("%s.%s(%s)", g.expr(tStr, d), g.pick("count", "find", "rfind", "index"), g.strLit())
	case 16:
		return fmt.Sprintf("%s.%s(%s)", g.expr(tList, d), g.pick("count", "index"), a())
	case 17:
		return fmt.Sprintf("math.%s(%s)", g.pick("floor", "ceil", "trunc"), g.expr(tFloat, d))
	case 18:
		return fmt.Sprintf("math.%s(%s, %s)", g.pick("gcd", "lcm", "comb", "perm"), g.pick(a(), g.smallInt()), g.smallInt())
	case 19:
		return fmt.Sprintf("int.from_bytes(%s, %s, signed=%s)", g.expr(tBytes, d), g.pick("'big'", "'little'"), g.pick("True", "False"))
	case 20:
		return fmt.Sprintf("%s[%s]", g.expr(g.pick2(tList, tTuple, tRange, tBytes), d), g.smallInt())
	default:
		return fmt.Sprintf("math.isqrt(abs(%s))", a())
	}
}

func (g *gen) pick2(ts ...typ) typ { return ts[g.n(len(ts))] }

func (g *gen) pickSeq() typ {
	return g.pick2(tStr, tBytes, tByteArray, tList, tStrList, tTuple, tDict, tSet, tRange)
}

func (g *gen) floatExpr(d int) string {
	f := func() string { return g.expr(tFloat, d) }
	switch g.n(12) {
	case 0, 1, 2:
		return fmt.Sprintf("(%s %s %s)", f(), g.pick("+", "-", "*", "/", "//", "%"), g.pick(f(), g.expr(tInt, d)))
	case 3:
		return fmt.Sprintf("float(%s)", g.pick(g.expr(tInt, d), g.pick("'inf'", "'-nan'", "' 1e5 '", "'1_0.5'", "'-0'", "'infinity'", "'0x1p3'", g.expr(tStr, d))))
	case 4:
		return fmt.Sprintf("math.%s(%s)", g.pick("sqrt", "fabs"), f())
	case 5:
		return fmt.Sprintf("math.%s(%s, %s)", g.pick("copysign", "fmod", "ldexp"), f(), g.pick(g.floatLit(), g.smallInt()))
	case 6:
		return fmt.Sprintf("round(%s, %d)", f(), g.n(7)-2)
	case 7:
		return fmt.Sprintf("%s(%s)", g.pick("-", "abs", "+"), f())
	case 8:
		return fmt.Sprintf("math.fsum(%s)", g.pick("[0.1] * 10", "[1e100, 1.0, -1e100]", "["+f()+", "+f()+"]"))
	case 9:
		return fmt.Sprintf("%s(%s, %s)", g.pick("min", "max"), f(), f())
	case 10:
		return fmt.Sprintf("(%s / %s)", g.expr(tInt, d), g.expr(tInt, d))
	default:
		return fmt.Sprintf("math.%s(%s)", g.pick("modf", "frexp"), f()) + "[0]"
	}
}

func (g *gen) strExpr(d int) string {
	s := func() string { return g.expr(tStr, d) }
	switch g.n(26) {
	case 0, 1:
		return fmt.Sprintf("(%s + %s)", s(), s())
	case 2:
		return fmt.Sprintf("(%s * %d)", s(), g.n(4)-1)
	case 3:
		return fmt.Sprintf("%s[%s]", s(), g.slice())
	case 4:
		return fmt.Sprintf("%s.%s()", s(), g.pick("upper", "lower", "title", "capitalize", "swapcase", "casefold", "strip", "lstrip", "rstrip", "expandtabs"))
	case 5:
		return fmt.Sprintf("%s.%s(%s)", s(), g.pick("strip", "lstrip", "rstrip", "removeprefix", "removesuffix"), g.strLit())
	case 6:
		return fmt.Sprintf("%s.replace(%s, %s%s)", s(), g.strLit(), g.strLit(), g.pick("", ", 1", ", -1", ", 0"))
	case 7:
		return fmt.Sprintf("%s.%s(%d%s)", s(), g.pick("center", "ljust", "rjust"), g.n(12), g.pick("", ", '*'", ", 'é'"))
	case 8:
		return fmt.Sprintf("%s.zfill(%d)", s(), g.n(10))
	case 9:
		return fmt.Sprintf("%s.join(%s)", g.strLit(), g.expr(tStrList, d))
	case 10:
		return fmt.Sprintf("str(%s)", g.expr(g.pick2(tInt, tFloat, tBytes, tList, tTuple, tDict, tRange, tBool, tByteArray), d))
	case 11:
		return fmt.Sprintf("repr(%s)", g.expr(g.pick2(tStr, tFloat, tBytes, tStrList, tByteArray), d))
	case 12:
		return g.formatExpr(d)
	case 13:
		return g.fstring(d)
	case 14:
		return g.percentFormat(d)
	case 15:
		return fmt.Sprintf("%s.decode(%s)", g.expr(tBytes, d), g.pick("", "'utf-8'", "'UTF-8'", "errors='strict'"))
	case 16:
		return fmt.Sprintf("%s(%s)", g.pick("hex", "oct", "bin", "chr", "ascii"), g.pick(g.expr(tInt, d), g.smallIntPos(), g.strLit()))
	case 17:
		return fmt.Sprintf("%s.hex()", g.expr(g.pick2(tBytes, tByteArray), d))
	case 18:
		return fmt.Sprintf("'{}-{!r}-{:>5}'.format(%s, %s, %s)", g.anyExpr(d), g.anyExpr(d), g.expr(g.pick2(tInt, tStr), d))
	case 19:
		return fmt.Sprintf("json.dumps(%s%s)", g.expr(g.pick2(tInt, tFloat, tStr, tList, tStrList, tDict, tBool, tTuple), d), g.pick("", ", sort_keys=True", ", indent=2", ", separators=(',', ':')", ", ensure_ascii=False"))
	case 20:
		return fmt.Sprintf("re.sub(%s, %s, %s)", g.regex(), g.pick("'-'", "r'<\\1>'", "''", "r'\\g<0>\\g<0>'"), s())
	case 21:
		return fmt.Sprintf("hashlib.%s(%s).hexdigest()", g.pick("sha256", "sha512", "sha3_256", "blake2b"), g.expr(tBytes, d))
	case 22:
		return fmt.Sprintf("str(decimal.Decimal(%s) %s decimal.Decimal(%s))", g.decLit(), g.pick("+", "-", "*", "/", "//", "%"), g.decLit())
	case 23:
		return fmt.Sprintf("%s.translate({%d: %s})", s(), 97+g.n(4), g.pick("None", "'Q'", "66"))
	case 24:
		return fmt.Sprintf("%s.%s(%d)", s(), g.pick("expandtabs"), g.n(9))
	default:
		return fmt.Sprintf("%s.format_map(%s)", g.pick("'{a}'", "'{}'", "'x'"), g.pick("{'a': 1}", "{}"))
	}
}

func (g *gen) smallIntPos() string { return strconv.Itoa(g.n(300)) }

func (g *gen) decLit() string {
	return g.pick("'1.1'", "'2.20'", "'-3'", "'0.3333'", "'1E+2'", "'123.456'", "'-0'", "'7'", "'0.1'", "'1e-5'", "'NaN'", "'Infinity'", "'3.5'")
}

func (g *gen) regex() string {
	return g.pick("r'a'", "r'[a-c]+'", "r'(\\w)(\\w)'", "r'\\d+'", "r'\\s'", "r'(a|b)c?'", "r'^.'", "r'.\\Z'", "r'x*'", "r'[^a-z]'", "r'(?i)A'", "r'\\w\\W'")
}

func (g *gen) slice() string {
	v := func() string {
		if g.chance(30) {
			return ""
		}
		return g.smallInt()
	}
	if g.chance(60) {
		return v() + ":" + v()
	}
	st := g.pick("1", "2", "-1", "-2", "3", "")
	return v() + ":" + v() + ":" + st
}

func (g *gen) bytesExpr(d int) string {
	b := func() string { return g.expr(g.pick2(tBytes, tBytes, tByteArray), d) }
	switch g.n(12) {
	case 0, 1:
		return fmt.Sprintf("bytes(%s + %s)", b(), b())
	case 2:
		return fmt.Sprintf("bytes(%s * %d)", b(), g.n(4))
	case 3:
		return fmt.Sprintf("bytes(%s[%s])", b(), g.slice())
	case 4:
		return fmt.Sprintf("bytes(%s.%s())", b(), g.pick("upper", "lower", "strip", "title", "swapcase", "capitalize"))
	case 5:
		return fmt.Sprintf("bytes(%s.replace(%s, %s))", b(), g.bytesLit(), g.bytesLit())
	case 6:
		return fmt.Sprintf("%s.encode(%s)", g.expr(tStr, d), g.pick("", "'utf-8'", "'utf8'", "'utf-8', 'strict'"))
	case 7:
		return fmt.Sprintf("bytes.fromhex(%s)", g.pick("'00ff 10'", "'abcd'", "'a'", "' 0a 0b '", "'zz'"))
	case 8:
		return fmt.Sprintf("(%s).to_bytes(%d, %s, signed=%s)", g.expr(tInt, d), g.n(12), g.pick("'big'", "'little'"), g.pick("True", "False"))
	case 9:
		return fmt.Sprintf("struct.pack(%s)", g.structArgs(d))
	case 10:
		return fmt.Sprintf("bytes(%s.%s(%d%s))", b(), g.pick("center", "ljust", "rjust"), g.n(10), g.pick("", ", b'*'"))
	default:
		return fmt.Sprintf("%s.join(%s)", g.bytesLit(), g.pick("[b'a', b'bc']", "[]", "[bytearray(b'x'), b'y']"))
	}
}

func (g *gen) structArgs(d int) string {
	switch g.n(5) {
	case 0:
		return fmt.Sprintf("'%sI', %s", g.pick("<", ">", "!", "="), g.expr(tInt, d))
	case 1:
		return fmt.Sprintf("'%shhb', %s, %s, %s", g.pick("<", ">"), g.smallInt(), g.smallInt(), g.smallInt())
	case 2:
		// Literal floats only: the sign of a NaN made by an invalid
		// operation (inf - inf) is the host FPU's in CPython (negative on
		// x86), always positive in the PVM; struct.pack would show it.
		return fmt.Sprintf("'%sd', %s", g.pick("<", ">"), g.floatLit())
	case 3:
		return fmt.Sprintf("'%sq?3s', %s, %s, %s", g.pick("<", ">"), g.expr(tInt, d), g.pick("True", "0"), g.bytesLit())
	default:
		return fmt.Sprintf("'%sfH', %s, %d", g.pick("<", ">"), g.floatLit(), g.n(70000))
	}
}

func (g *gen) listExpr(d int) string {
	l := func() string { return g.expr(tList, d) }
	switch g.n(14) {
	case 0:
		return fmt.Sprintf("(%s + %s)", l(), l())
	case 1:
		return fmt.Sprintf("(%s * %d)", l(), g.n(3))
	case 2:
		return fmt.Sprintf("%s[%s]", l(), g.slice())
	case 3:
		// Keys are total orders: ties would keep a set's iteration order.
		return fmt.Sprintf("sorted(%s%s)", g.expr(g.pick2(tList, tSet, tTuple), d), g.pick("", ", reverse=True", ", key=lambda x: (abs(x), x)", ", key=lambda x: (x % 3, -x)"))
	case 4:
		return fmt.Sprintf("list(%s)", g.expr(tRange, d))
	case 5:
		return g.listComp(d)
	case 6:
		return fmt.Sprintf("list(reversed(%s))", g.expr(g.pick2(tList, tTuple, tRange), d))
	case 7:
		return fmt.Sprintf("list(%s)", g.expr(g.pick2(tBytes, tByteArray), d))
	case 8:
		return fmt.Sprintf("list(map(%s, %s))", g.pick("abs", "lambda x: x * 2", "lambda x: -x", "str.__len__ if False else (lambda x: x // 3)"), l())
	case 9:
		return fmt.Sprintf("list(itertools.%s)", g.pick("accumulate("+l()+")", "chain("+l()+", "+l()+")", "islice("+l()+", 1, None, 2)", "compress("+l()+", [1, 0, 1])"))
	case 10:
		return fmt.Sprintf("[x for x, _ in itertools.zip_longest(%s, %s, fillvalue=0)]", l(), l())
	case 11:
		return fmt.Sprintf("list(%s.values())", g.expr(tDict, d))
	case 12:
		return fmt.Sprintf("list(struct.unpack(%s, %s))", g.pick("'<hh'", "'>I'", "'<4B'", "'>bbbb'"), g.pick("b'\\x01\\x02\\x03\\x04'", "b'\\xff\\xfe\\xfd\\xfc'"))
	default:
		return fmt.Sprintf("[%s for %s in %s]", g.pick("len(x)", "x.count('a')"), "x", g.expr(tStrList, d))
	}
}

func (g *gen) strListExpr(d int) string {
	s := func() string { return g.expr(tStr, d) }
	switch g.n(8) {
	case 0:
		return fmt.Sprintf("%s.split(%s)", s(), g.pick("", "','", "' '", "'a', 1", "None, 2"))
	case 1:
		return fmt.Sprintf("%s.rsplit(%s)", s(), g.pick("", "','", "None, 1"))
	case 2:
		return fmt.Sprintf("%s.splitlines(%s)", s(), g.pick("", "True"))
	case 3:
		return fmt.Sprintf("list(%s.partition(%s))", s(), g.strLit())
	case 4:
		return fmt.Sprintf("re.findall(%s, %s)", g.pick("r'\\w+'", "r'[a-z]'", "r'\\d'", "r'.'", "r'\\S+'"), s())
	case 5:
		return fmt.Sprintf("re.split(%s, %s)", g.pick("r','", "r'\\s+'", "r'(a)'", "r'x*'"), s())
	case 6:
		return fmt.Sprintf("sorted(%s%s)", g.expr(tStrList, d), g.pick("", ", key=len", ", key=str.lower", ", reverse=True"))
	default:
		return fmt.Sprintf("list(%s)", g.pick(s(), g.expr(tDict, d)))
	}
}

func (g *gen) dictExpr(d int) string {
	switch g.n(6) {
	case 0:
		return fmt.Sprintf("dict(zip(%s, %s))", g.expr(tStrList, d), g.expr(tList, d))
	case 1:
		return fmt.Sprintf("{k: v for k, v in %s.items() if v %s 0}", g.expr(tDict, d), g.pick(">", "<", "!="))
	case 2:
		return fmt.Sprintf("(%s | %s)", g.expr(tDict, d), g.expr(tDict, d))
	case 3:
		return fmt.Sprintf("dict.fromkeys(%s, %s)", g.expr(tStrList, d), g.smallInt())
	case 4:
		return fmt.Sprintf("dict(collections.Counter(%s))", g.expr(tStr, d))
	default:
		return fmt.Sprintf("{**%s, %s: %s}", g.expr(tDict, d), g.strLit(), g.expr(tInt, d))
	}
}

func (g *gen) setExpr(d int) string {
	s := func() string { return g.expr(tSet, d) }
	switch g.n(6) {
	case 0:
		return fmt.Sprintf("(%s %s %s)", s(), g.pick("|", "&", "-", "^"), s())
	case 1:
		return fmt.Sprintf("set(%s)", g.expr(g.pick2(tList, tTuple, tRange), d))
	case 2:
		return fmt.Sprintf("{x %s %d for x in %s}", g.pick("%", "//", "*", "+"), 1+g.n(5), g.expr(tList, d))
	case 3:
		return fmt.Sprintf("%s.%s(%s)", s(), g.pick("union", "intersection", "difference", "symmetric_difference"), g.expr(g.pick2(tList, tSet, tRange), d))
	case 4:
		return fmt.Sprintf("set(%s)", g.expr(tBytes, d))
	default:
		return fmt.Sprintf("set(map(len, %s))", g.expr(tStrList, d))
	}
}

func (g *gen) boolExpr(d int) string {
	switch g.n(8) {
	case 0:
		return fmt.Sprintf("(%s %s %s)", g.expr(tInt, d), g.pick("<", "<=", "==", "!=", ">", ">="), g.expr(g.pick2(tInt, tFloat), d))
	case 1:
		return fmt.Sprintf("(%s %s %s)", g.expr(tFloat, d), g.pick("<", "<=", "==", "!=", ">", ">="), g.expr(tFloat, d))
	case 2:
		return fmt.Sprintf("(%s in %s)", g.expr(tInt, d), g.expr(g.pick2(tList, tSet, tRange, tTuple, tBytes), d))
	case 3:
		return fmt.Sprintf("%s.%s()", g.expr(tStr, d), g.pick("isalpha", "isdigit", "isspace", "isupper", "islower", "istitle", "isidentifier", "isalnum", "isdecimal", "isnumeric", "isprintable", "isascii"))
	case 4:
		return fmt.Sprintf("%s.%s(%s)", g.expr(tStr, d), g.pick("startswith", "endswith"), g.pick(g.strLit(), "("+g.strLit()+", "+g.strLit()+")"))
	case 5:
		return fmt.Sprintf("(%s %s %s)", g.expr(g.pick2(tList, tTuple, tStr), d), g.pick("<", "==", ">="), g.expr(g.pick2(tList, tTuple, tStr), d))
	case 6:
		return fmt.Sprintf("%s(%s)", g.pick("any", "all", "bool"), g.expr(g.pick2(tList, tStr, tSet, tDict), d))
	default:
		return fmt.Sprintf("(%s %s %s)", g.expr(tSet, d), g.pick("<=", "<", "==", ">="), g.expr(tSet, d))
	}
}

// anyExpr is an expression of any type.
// Never a set: str(), repr() and formatting of a set show its iteration
// order, which is insertion order in the PVM and hash order in CPython.
func (g *gen) anyExpr(d int) string {
	t := typ(g.n(int(nTypes)))
	if t == tSet {
		t = tList
	}
	return g.expr(t, d)
}

func (g *gen) listComp(d int) string {
	src := g.expr(g.pick2(tList, tRange, tTuple), d)
	if g.chance(20) {
		src = "sorted(" + g.expr(tSet, d) + ")"
	}
	cond := ""
	if g.chance(50) {
		// No walrus here: a nested comprehension may become another's
		// iterable, where CPython refuses one (the scoping unit has walrus).
		cond = " if " + g.pick("x % 2", "x > 0", "x != 1", "x * 2 > 3")
	}
	switch g.n(4) {
	case 0:
		return fmt.Sprintf("[x * %s for x in %s%s]", g.smallInt(), src, cond)
	case 1:
		return fmt.Sprintf("[x + y for x in %s for y in range(%d)%s]", src, g.n(3), cond)
	case 2:
		return fmt.Sprintf("[-x for x in %s%s]", src, cond)
	default:
		return fmt.Sprintf("[sum(z) for z in zip(%s, %s)]", src, g.expr(tList, d))
	}
}

// ---- formatting ----

func (g *gen) spec(t typ) string {
	var b strings.Builder
	if g.chance(30) {
		if g.chance(40) {
			b.WriteString(g.pick("*", "0", "_", "é"))
		}
		b.WriteString(g.pick("<", ">", "^", "="))
	}
	if t != tStr && g.chance(30) {
		b.WriteString(g.pick("+", "-", " "))
	}
	if t != tStr && g.chance(15) {
		b.WriteString("#")
	}
	if t != tStr && g.chance(10) {
		b.WriteString("0")
	}
	if g.chance(40) {
		b.WriteString(strconv.Itoa(g.n(15)))
	}
	if t != tStr && g.chance(20) {
		b.WriteString(g.pick(",", "_"))
	}
	if g.chance(40) {
		b.WriteString("." + strconv.Itoa(g.n(8)))
	}
	switch t {
	case tInt:
		b.WriteString(g.pick("", "d", "x", "X", "o", "b", "n", "c", "e", "f", "%", "g"))
	case tFloat:
		b.WriteString(g.pick("", "f", "F", "e", "E", "g", "G", "%", "n"))
	default:
		b.WriteString(g.pick("", "s"))
	}
	return b.String()
}

func (g *gen) formatExpr(d int) string {
	t := g.pick2(tInt, tFloat, tStr)
	return fmt.Sprintf("format(%s, %q)", g.expr(t, d), g.spec(t))
}

func (g *gen) fstring(d int) string {
	t := g.pick2(tInt, tFloat, tStr)
	conv := ""
	if t == tStr && g.chance(20) {
		conv = g.pick("!r", "!s", "!a")
	}
	spec := g.spec(t)
	if conv != "" {
		spec = g.spec(tStr)
	}
	inner := g.expr(t, d)
	inner = strings.ReplaceAll(inner, "'", "\"")
	if strings.ContainsAny(inner, "\\{}") {
		inner = g.varOf(t)
	}
	colon := ""
	if spec != "" {
		colon = ":" + spec
	}
	pre := g.pick("", "x=", "[", "{{")
	return fmt.Sprintf("f'%s{%s%s%s}'", pre, inner, conv, strings.ReplaceAll(strings.ReplaceAll(colon, "{", "{{"), "}", "}}"))
}

func (g *gen) percentFormat(d int) string {
	var specs, args []string
	n := 1 + g.n(3)
	for i := 0; i < n; i++ {
		flags := g.pick("", "-", "+", " ", "0", "#")
		width := g.pick("", "5", "10", "*")
		prec := g.pick("", ".2", ".0", ".10")
		conv := g.pick("d", "i", "x", "X", "o", "e", "E", "f", "g", "G", "s", "r", "a", "c", "%")
		if conv == "%" {
			specs = append(specs, "%%")
			continue
		}
		if width == "*" {
			args = append(args, strconv.Itoa(g.n(12)))
		}
		specs = append(specs, "%"+flags+width+prec+conv)
		switch conv {
		case "s", "r", "a":
			args = append(args, g.anyExpr(d))
		case "c":
			args = append(args, g.pick("65", "'x'", "0x263a"))
		case "d", "i", "x", "X", "o":
			args = append(args, g.expr(g.pick2(tInt, tInt, tFloat, tBool), d))
		default:
			args = append(args, g.expr(g.pick2(tFloat, tInt), d))
		}
	}
	return fmt.Sprintf("(%q %% (%s,))", strings.Join(specs, "|"), strings.Join(args, ", "))
}

// ---- units ----

func (g *gen) unit() {
	switch k := g.n(100); {
	case k < 12:
		g.issue18()
	case k < 30:
		t := typ(g.n(int(nTypes)))
		g.emit("print(show(" + g.expr(t, 3) + "))")
	case k < 38:
		g.assign(typ(g.n(int(nTypes))), false)
	case k < 50:
		g.mutate()
	case k < 58:
		g.emit("print(approx(" + g.transcendental() + "))")
	case k < 66:
		g.scoping()
	case k < 76:
		g.exceptions()
	case k < 84:
		g.views()
	case k < 88:
		g.modules()
	case k < 94:
		g.misc()
	case k < 97:
		g.classUnit()
	default:
		g.privateUnit()
	}
}

// misc covers slices, ranges, float and tuple methods, min/max forms.
func (g *gen) misc() {
	switch g.n(8) {
	case 0:
		g.emit(fmt.Sprintf("sl = slice(%s)", g.pick(g.smallInt(), "None, "+g.smallInt(), g.smallInt()+", "+g.smallInt()+", "+g.pick("1", "-1", "2", "-3", "None"))),
			fmt.Sprintf("print(sl, sl.indices(%d), show(%s[sl]), show(%s[sl]))", g.n(12), g.expr(g.pick2(tList, tStr, tTuple, tBytes), 1), g.expr(tRange, 1)))
	case 1:
		g.emit(fmt.Sprintf("r = %s", g.expr(tRange, 1)), fmt.Sprintf("print(r, r[%s], len(r), r.count(%s), show(list(r[::-1])), r == range(0), bool(r))", g.slice(), g.smallInt()))
	case 2:
		f := g.expr(tFloat, 1)
		g.emit("x = "+f, "print(x.hex(), x.is_integer(), float.fromhex(x.hex()) == x or x != x)", "print(show(x.as_integer_ratio()))")
	case 3:
		g.emit(fmt.Sprintf("print(show(divmod(%s, %s)), show(divmod(%s, %s)))", g.expr(tFloat, 1), g.expr(g.pick2(tFloat, tInt), 1), g.expr(tInt, 1), g.expr(tInt, 1)))
	case 4:
		t := g.expr(tTuple, 1)
		g.emit("t = "+t, fmt.Sprintf("print(t.count(%s), t.index(%s) if %s in t else None, t[%s], t + (1,), t * 2 < t)", g.smallInt(), g.smallInt(), g.smallInt(), g.slice()))
	case 5:
		l := g.expr(tList, 1)
		g.emit(fmt.Sprintf("print(min(%s, default=None), max(%s, key=lambda v: (-v, v)), min(3, -1, 2), max('ab', 'b', key=len))", l, l))
	case 6:
		d := g.varOf(tDict)
		g.emit(fmt.Sprintf("print(show(sorted(%s)), show(dict(sorted(%s.items(), key=lambda kv: (-kv[1], kv[0])))), show([k for k, v in %s.items() if v]))", d, d, d))
	default:
		g.emit(fmt.Sprintf("print(float(%s), int(float(%s)), show([round(%s, n) for n in (0, 1, -1)]))", g.pick("'1e500'", "'-1E-500'", "'  -0.0 '", "'nan'", "'1_000.5'", "'.5'", "'5.'"), g.pick("'12.9'", "'-7.5e1'"), g.expr(tFloat, 1)))
	}
}

func (g *gen) transcendental() string {
	f := g.expr(tFloat, 1)
	switch g.n(5) {
	case 0:
		return fmt.Sprintf("math.%s(%s)", g.pick("exp", "log", "sin", "cos", "tan", "atan", "sinh", "tanh", "log2", "log10", "log1p", "expm1", "asin", "acos", "asinh"), f)
	case 1:
		return fmt.Sprintf("math.%s(%s, %s)", g.pick("atan2", "pow", "hypot", "log"), f, g.expr(tFloat, 1))
	case 2:
		// A negative base to a fractional power is complex in CPython;
		// the PVM has no complex type.
		return fmt.Sprintf("(abs(%s) ** %s)", f, g.expr(g.pick2(tFloat, tInt), 1))
	case 3:
		return fmt.Sprintf("pow(abs(%s), %s)", g.expr(tInt, 1), g.pick("-1", "-2", "0.5", "-0.5"))
	default:
		return fmt.Sprintf("math.isclose(%s, %s)", f, g.expr(tFloat, 1))
	}
}

func (g *gen) mutate() {
	switch g.n(14) {
	case 0:
		v := g.varOf(tList)
		g.emit(fmt.Sprintf("%s.%s", v, g.pick("append("+g.expr(tInt, 1)+")", "extend("+g.expr(g.pick2(tList, tRange, tTuple), 1)+")", "insert("+g.smallInt()+", "+g.expr(tInt, 1)+")", "reverse()", "sort()", "sort(reverse=True, key=lambda x: x % 5)", "remove("+g.expr(tInt, 1)+")", "clear()")), "print(show("+v+"))")
	case 1:
		v := g.varOf(tList)
		g.emit(fmt.Sprintf("print(show(%s.pop(%s)), show(%s))", v, g.pick("", g.smallInt()), v))
	case 2:
		v := g.varOf(tList)
		g.emit(fmt.Sprintf("%s[%s] = %s", v, g.slice(), g.expr(g.pick2(tList, tRange, tTuple), 1)), "print(show("+v+"))")
	case 3:
		v := g.varOf(tList)
		g.emit(fmt.Sprintf("del %s[%s]", v, g.pick(g.slice(), g.smallInt())), "print(show("+v+"))")
	case 4:
		v := g.varOf(tDict)
		g.emit(fmt.Sprintf("%s[%s] = %s", v, g.strLit(), g.expr(tInt, 1)), "print(show("+v+"))")
	case 5:
		v := g.varOf(tDict)
		g.emit(fmt.Sprintf("print(show(%s.%s), show(%s))", v, g.pick("pop("+g.strLit()+", None)", "setdefault("+g.strLit()+", 5)", "get("+g.strLit()+")", "popitem()", "update(a=1)", "copy()"), v))
	case 6:
		v := g.varOf(tSet)
		g.emit(fmt.Sprintf("%s.%s", v, g.pick("add("+g.expr(tInt, 1)+")", "discard("+g.expr(tInt, 1)+")", "remove("+g.expr(tInt, 1)+")", "update("+g.expr(tList, 1)+")", "intersection_update("+g.expr(tSet, 1)+")", "difference_update("+g.expr(tRange, 1)+")", "symmetric_difference_update("+g.expr(tSet, 1)+")")), "print(show("+v+"))")
	case 7:
		v := g.varOf(tByteArray)
		g.emit(fmt.Sprintf("%s.%s", v, g.pick("append("+g.smallIntPos()+")", "extend("+g.bytesLit()+")", "insert(1, 65)", "reverse()", "pop()", "remove(97)", "clear()")), "print(show("+v+"))")
	case 8:
		v := g.varOf(tByteArray)
		g.emit(fmt.Sprintf("%s[%s] = %s", v, g.slice(), g.expr(tBytes, 1)), "print(show("+v+"))")
	case 9:
		v := g.varOf(tInt)
		g.emit(fmt.Sprintf("%s %s= %s", v, g.pick("+", "-", "*", "//", "%", "&", "|", "^", ">>"), g.expr(tInt, 1)), "print(show("+v+"))")
	case 10:
		v := g.varOf(tStr)
		g.emit(fmt.Sprintf("%s += %s", v, g.expr(tStr, 1)), "print(show("+v+"))")
	case 11:
		v := g.varOf(tList)
		g.emit(fmt.Sprintf("%s += %s", v, g.expr(g.pick2(tList, tRange, tTuple), 1)), fmt.Sprintf("%s *= %d", v, g.n(3)), "print(show("+v+"))")
	case 12:
		v := g.varOf(tDict)
		g.emit(fmt.Sprintf("%s |= %s", v, g.expr(tDict, 1)), "print(show("+v+"))")
	default:
		v := g.varOf(tFloat)
		g.emit(fmt.Sprintf("%s %s= %s", v, g.pick("+", "-", "*", "/", "//", "%"), g.expr(g.pick2(tFloat, tInt), 1)), "print(show("+v+"))")
	}
}

func (g *gen) views() {
	d := g.varOf(tDict)
	switch g.n(7) {
	case 0:
		g.emit(fmt.Sprintf("print(%s.keys(), %s.values(), %s.items())", d, d, d))
	case 1:
		g.emit(fmt.Sprintf("print(show(%s.keys() %s %s))", d, g.pick("&", "|", "-", "^"), g.pick("{'a', 'b'}", "set(list("+g.expr(tDict, 1)+"))", g.expr(tStrList, 1))))
	case 2:
		g.emit(fmt.Sprintf("print(len(%s.items()), %s in %s.keys(), (%s, 1) in %s.items())", d, g.strLit(), d, g.strLit(), d))
	case 3:
		g.emit(fmt.Sprintf("print(list(reversed(%s)), list(reversed(%s.values())))", d, d))
	case 4:
		g.emit(fmt.Sprintf("ks = %s.keys()", d), fmt.Sprintf("%s[%s] = 0", d, g.strLit()), "print(ks, len(ks))")
	case 5:
		g.emit(fmt.Sprintf("print(show(sorted(%s.items(), key=lambda kv: (kv[1], kv[0]))))", d))
	default:
		g.emit(fmt.Sprintf("print(%s.keys() == %s.keys(), show(%s.keys() <= set(%s)))", d, g.expr(tDict, 1), d, g.expr(tStrList, 1)))
	}
}

func (g *gen) scoping() {
	a, b := g.expr(tInt, 1), g.expr(tInt, 1)
	switch g.n(9) {
	case 8:
		// str.join and bytes.join over a generator: CPython makes a list
		// of it first, so the generator runs to its end (and its own
		// error comes first) before any item's type is checked.
		items := g.pick("'a', 1, 'b'", "'x', 'y'", "b'a', 'c'", "", "'p', None, 'q', 2")
		sep := "'-'"
		if g.n(2) == 0 {
			items = g.pick("b'a', 1, b'b'", "b'x', bytearray(b'y')", "'s', b't'", "")
			sep = g.pick("b'-'", "bytearray(b'+')")
		}
		tail := g.pick("", "    raise ValueError('gen failed')", "    yield 7")
		lines := []string{"seen = []", "def src():", "    for x in [" + items + "]:", "        seen.append(x)", "        yield x"}
		if tail != "" {
			lines = append(lines, tail)
		}
		lines = append(lines, "g = src()", "try:", "    print(show("+sep+".join(g)))", "except (TypeError, ValueError) as e:",
			"    print(type(e).__name__, e)", "print(show(seen), show(list(g)))")
		g.emit(lines...)
	case 0:
		g.emit("def mk(a):", "    def inner(b):", "        return "+g.pick("a + b", "a * b - 1", "[a, b]", "a // (b or 1)"), "    return inner", fmt.Sprintf("print(show(mk(%s)(%s)))", a, b))
	case 1:
		g.emit("def counter(c):", "    def inc(d):", "        nonlocal c", "        c += d", "        return c", "    return inc", "h = counter("+a+")", "print(h(1), h("+b+"), h(-2))")
	case 2:
		g.emit(fmt.Sprintf("print(show([y for x in %s if (y := x %s %d) %s 1]))", g.expr(g.pick2(tList, tRange), 1), g.pick("%", "*", "-", "//"), 1+g.n(4), g.pick(">", "<", "!=")), "print(y)")
	case 3:
		g.emit("fs = [lambda x, i=i: x + i for i in range(3)]", "gs = [lambda x: x + i for i in range(3)]", fmt.Sprintf("print([f(%s) for f in fs], [h(%s) for h in gs])", a, a))
	case 4:
		g.emit("def gen(n):", "    for i in range(n):", "        x = yield i * i", "        if x:", "            yield -x", "it = gen("+strconv.Itoa(g.n(6))+")", "print(show(list(it)))", "g2 = gen(4)", "print(next(g2), g2.send(7), next(g2), next(g2, 'done'))")
	case 5:
		g.emit("total = 0", "def addg(k):", "    global total", "    total += k", "    return total", fmt.Sprintf("print(addg(%s), addg(%s), total)", a, b))
	case 6:
		g.emit(fmt.Sprintf("if (n := len(%s)) %s 2:", g.expr(g.pickSeq(), 1), g.pick(">", "<", "==")), "    print('big', n)", "else:", "    print('small', n)")
	default:
		g.emit("def outer():", "    x = "+a, "    def mid():", "        def leaf():", "            return x * 2", "        return leaf()", "    x += 1", "    return mid()", "print(outer())")
	}
}

func (g *gen) exceptions() {
	exc := g.pick("ValueError", "KeyError", "TypeError", "IndexError", "ZeroDivisionError", "RuntimeError", "ArithmeticError", "LookupError", "AttributeError", "NotImplementedError", "StopIteration", "Exception", "OverflowError")
	catch := g.pick(exc, "Exception", "(KeyError, IndexError)", "LookupError", "ArithmeticError", "ValueError")
	body := g.pick("raise "+exc+"("+g.strLit()+")", "raise "+exc, "x = "+g.expr(tInt, 2), "print(show("+g.anyExpr(2)+"))", "raise "+exc+"("+g.expr(tInt, 1)+", "+g.strLit()+")")
	switch g.n(6) {
	case 0:
		g.emit("try:", "    "+body, "except "+catch+" as e:", "    print('caught', type(e).__name__, show(e.args), repr(e), str(e))", "else:", "    print('else')", "finally:", "    print('finally')")
	case 1:
		g.emit("def f():", "    try:", "        "+body, "        return 'body'", "    finally:", "        print('cleanup')", "print(f())")
	case 2:
		g.emit("try:", "    try:", "        "+body, "    except "+catch+" as e:", "        raise RuntimeError('wrapped') from e", "except RuntimeError as e:", "    print(type(e.__cause__).__name__, show(e.__cause__.args), e.__suppress_context__)")
	case 3:
		g.emit("class MyErr("+g.pick("ValueError", "Exception", "KeyError", "LookupError")+"):", "    def __init__(self, v):", "        super().__init__(v, 'extra')", "        self.v = v", "try:", "    raise MyErr("+g.expr(tInt, 1)+")", "except "+g.pick("MyErr", "Exception", "ValueError", "LookupError")+" as e:", "    print(type(e).__name__, show(e.args), str(e), e.v)")
	case 4:
		g.emit("try:", "    try:", "        "+body, "    finally:", "        print('inner finally')", "except BaseException as e:", "    print('outer', type(e).__name__, str(e))")
	default:
		g.emit("for i in range(3):", "    try:", "        if i == 1:", "            continue", "        "+body, "    except "+catch+":", "        print('exc', i)", "        break", "    finally:", "        print('fin', i)")
	}
}

func (g *gen) modules() {
	switch g.n(9) {
	case 0:
		g.emit(fmt.Sprintf("print(show(json.loads(json.dumps(%s))))", g.expr(g.pick2(tDict, tList, tStrList, tInt, tFloat, tStr), 2)))
	case 1:
		g.emit(fmt.Sprintf("print(show(json.loads(%s)))", g.pick(`'{"a": [1, 2.5, null, true], "b": {"c": "\\u00e9"}}'`, `'[1e400, -0.0, 12345678901234567890]'`, `'"\\ud83d\\ude00"'`, `'{"a": 1, "a": 2}'`, `'[NaN, Infinity]'`, `'  [1 , 2 ]  '`, `'{bad}'`)))
	case 2:
		m := g.pick("re.match", "re.search", "re.fullmatch")
		g.emit(fmt.Sprintf("m = %s(%s, %s)", m, g.regex(), g.expr(tStr, 1)), "print(m and (m.group(0), m.span(), m.groups()))")
	case 3:
		g.emit(fmt.Sprintf("print(show(struct.unpack(%s, struct.pack(%s))))", g.pick("'<I'", "'>I'", "'<d'", "'>hhb'"), g.structArgs(1)), fmt.Sprintf("print(struct.calcsize(%s))", g.pick("'<IhQ'", "'@ibq'", "'>3sH'", "'xxd'")))
	case 4:
		a, b := g.decLit(), g.decLit()
		g.emit("D = decimal.Decimal", fmt.Sprintf("x, y = D(%s), D(%s)", a, b), "print(x + y, x * y, x - y, x < y, x == y, -x, abs(y))", "print(show([str(x.quantize(D('0.01'))), str(y.normalize()), x.is_nan(), str(x.sqrt()) if x > 0 else 'neg']))")
	case 5:
		l := g.expr(tList, 1)
		g.emit(fmt.Sprintf("print(show(list(itertools.%s)))", g.pick("permutations("+l+", 2)", "combinations("+l+", 2)", "product("+l+", repeat=1)", "pairwise("+l+")", "starmap(pow, [(2, 3), (3, 2)])", "takewhile(lambda x: x > 0, "+l+")", "dropwhile(lambda x: x > 0, "+l+")", "combinations_with_replacement(range(3), 2)")))
	case 6:
		g.emit(fmt.Sprintf("print(show([(k, list(v)) for k, v in itertools.groupby(%s, key=lambda x: x %% 2)]))", g.expr(tList, 1)))
	case 7:
		g.emit(fmt.Sprintf("c = collections.Counter(%s)", g.expr(g.pick2(tStr, tList), 1)), "print(show(c.most_common(3)), c.total(), show(sorted(c.elements(), key=str)))", "dq = collections.deque("+g.expr(tList, 1)+", maxlen=4)", "dq.appendleft(0)", "dq.rotate(1)", "print(show(list(dq)), dq.maxlen)")
	default:
		g.emit(fmt.Sprintf("print(functools.reduce(%s, %s%s))", g.pick("lambda a, b: a * 2 + b", "max", "lambda a, b: a - b"), g.expr(tList, 1), g.pick("", ", 0", ", 100")))
	}
}

func (g *gen) classUnit() {
	a := g.expr(tInt, 1)
	switch g.n(4) {
	case 0:
		g.emit("class K:", "    x = "+a, "    ys = [i for i in range(3)]", "    def m(self, z):", "        return self.x + z", "    @classmethod", "    def c(cls):", "        return cls.x * 2", "    @staticmethod", "    def s(v):", "        return -v", "    @property", "    def p(self):", "        return self.x - 1", "    def __repr__(self):", "        return 'K(%r)' % (self.x,)", "k = K()", fmt.Sprintf("print(k.m(%s), K.c(), K.s(3), k.p, k, K.ys)", g.expr(tInt, 1)))
	case 1:
		g.emit("class V:", "    def __init__(self, a):", "        self.a = a", "    def __add__(self, o):", "        return V(self.a + (o.a if isinstance(o, V) else o))", "    __radd__ = __add__", "    def __eq__(self, o):", "        return isinstance(o, V) and self.a == o.a", "    def __lt__(self, o):", "        return self.a < o.a", "    def __repr__(self):", "        return f'V({self.a!r})'", "    __hash__ = None", fmt.Sprintf("vs = [V(%s), V(%s), V(1)]", a, g.expr(tInt, 1)), "print(sorted(vs), sum(vs, V(0)), 3 + vs[0], vs[0] == V(1), max(vs))")
	case 2:
		g.emit("class Base:", "    tag = 'base'", "    def who(self):", "        return self.tag + ':' + type(self).__name__", "class Child(Base):", "    tag = 'child'", "    def who(self):", "        return 'C/' + super().who()", "print(Child().who(), Base().who(), issubclass(Child, Base), isinstance(Child(), Base), Child.__mro__[1].__name__)")
	default:
		g.emit("class Seq:", "    def __init__(self, n):", "        self.n = n", "    def __len__(self):", "        return self.n", "    def __getitem__(self, i):", "        if i >= self.n:", "            raise IndexError(i)", "        return i * i", "s = Seq("+strconv.Itoa(g.n(6))+")", "print(len(s), list(s), 4 in s, show(s[1:3] if False else [s[0]]) if len(s) else None)")
	}
}
