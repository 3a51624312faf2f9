package difftest

import (
	"fmt"
	"strings"
)

// Units for the modules and language features of issue 18: operator, the
// math functions cbrt/exp2/remainder/dist/erf/erfc/gamma/lgamma, the
// decimal methods (exp, ln, log10, as_tuple, ...) and coroutines driven by
// asyncio.run. They stay inside the contract of docs/decisions.md ("PVM
// modules of issue 18"): no refused asyncio primitives, no async
// generators, libm-like math results through approx().

// opNames2 are operator's two-argument functions that apply to ints.
var opNames2 = []string{"add", "sub", "mul", "floordiv", "mod", "truediv", "lshift", "rshift", "and_", "or_", "xor", "eq", "ne", "lt", "le", "gt", "ge", "iadd", "isub", "imul", "ifloordiv", "imod", "iand", "ior", "ixor", "__add__", "__mul__"}

func (g *gen) issue18() {
	switch g.n(4) {
	case 0:
		g.operatorUnit()
	case 1:
		g.emit("print(approx(" + g.mathNew() + "))")
	case 2:
		g.decimalUnit()
	default:
		g.asyncUnit()
	}
}

func (g *gen) operatorUnit() {
	i := func() string { return g.expr(tInt, 1) }
	switch g.n(11) {
	case 9:
		a := g.expr(g.pick2(tFloat, tStr, tStrList, tBytes, tTuple, tBool), 1)
		b := g.expr(g.pick2(tFloat, tInt, tStr, tBool), 1)
		op := g.pick("add", "mul", "mod", "truediv", "floordiv", "sub", "lt", "eq", "ge", "contains", "concat", "iconcat", "imul")
		if op == "mul" || op == "imul" {
			// A sequence times a large int would build a huge object.
			b = g.pick(g.expr(tFloat, 1), g.smallInt(), "True", g.strLit(), "2**70")
		}
		g.emit(fmt.Sprintf("print(show(operator.%s(%s, %s)))", op, a, b))
	case 10:
		d := g.varOf(tDict)
		g.emit(fmt.Sprintf("print(show(operator.getitem(%s, %s)), show(operator.itemgetter(%s, %s)(%s)))", d, g.pick("'a'", "'b'", "'zz'"), g.pick("'a'", "'b'"), g.pick("'x'", "'a'"), d),
			fmt.Sprintf("print(show(operator.attrgetter(%s)(%s)))", g.pick("'real'", "'imag'", "'numerator'", "'denominator'", "'real.imag'", "'nope'"), g.expr(g.pick2(tInt, tBool), 1)),
			fmt.Sprintf("print(show(operator.methodcaller(%s)(%s)))", g.pick("'bit_length'", "'to_bytes', 4, 'big'", "'conjugate'", "'__add__', 1", "'as_integer_ratio'"), g.expr(tInt, 1)))
	case 0:
		g.emit(fmt.Sprintf("print(show(operator.%s(%s, %s)))", g.pick(opNames2...), g.pick(i(), g.smallInt()), g.pick(i(), g.smallInt(), g.smallIntPos())))
	case 1:
		if g.chance(25) {
			g.emit(fmt.Sprintf("print(show(operator.%s(%s, %d)), operator.pow(2, -1))", g.pick("pow", "ipow", "__pow__"), g.pick(i(), g.smallInt()), g.n(6)))
			return
		}
		g.emit(fmt.Sprintf("print(show(operator.%s(%s)))", g.pick("neg", "pos", "abs", "invert", "not_", "truth", "index", "__neg__", "inv"), g.pick(i(), g.smallInt(), "True", "0")))
	case 2:
		s := g.expr(g.pick2(tStr, tList, tTuple, tStrList, tBytes), 1)
		g.emit(fmt.Sprintf("print(show(operator.%s))", g.pick(
			"concat("+s+", "+s+")",
			"contains("+s+", "+g.pick(g.smallInt(), g.strLit())+")",
			"countOf("+s+", "+g.pick(g.smallInt(), g.strLit())+")",
			"indexOf("+s+", "+g.pick(g.smallInt(), g.strLit())+")",
			"getitem("+s+", "+g.pick(g.smallInt(), "slice("+g.smallInt()+", None)")+")",
			"length_hint("+s+")",
			"length_hint(iter("+s+"), 7)",
			"mul("+s+", "+fmt.Sprint(g.n(3))+")")))
	case 3:
		l := g.expr(g.pick2(tList, tRange), 1)
		g.emit(fmt.Sprintf("print(show(functools.reduce(operator.%s, %s%s)))", g.pick("add", "mul", "sub", "or_", "xor", "and_", "iadd"), l, g.pick("", ", 0", ", 1", ", -3")))
	case 4:
		l := g.expr(g.pick2(tList, tRange, tTuple), 1)
		g.emit(fmt.Sprintf("print(show(list(itertools.accumulate(%s, operator.%s))))", l, g.pick("add", "mul", "sub", "or_", "xor", "and_")),
			fmt.Sprintf("print(show(list(itertools.starmap(operator.%s, zip(%s, %s)))))", g.pick("add", "mul", "sub", "floordiv", "mod", "lt", "le"), l, g.expr(g.pick2(tList, tRange), 1)),
			fmt.Sprintf("print(show(list(map(operator.%s, %s, %s))))", g.pick("add", "mul", "max", "eq", "sub"), l, g.expr(g.pick2(tList, tRange), 1)))
	case 5:
		ks := g.pick("0", "-1", "1, 0", "0, 0", "2", "slice(1, None)")
		d := g.varOf(tDict)
		g.emit(fmt.Sprintf("ig = operator.itemgetter(%s)", ks), "print(ig)",
			fmt.Sprintf("print(show(ig(%s)))", g.expr(g.pick2(tList, tStr, tTuple, tBytes, tRange), 1)),
			fmt.Sprintf("rows = [(%s, %s), (%s, %s), (%s, %s)]", g.smallInt(), g.strLit(), g.smallInt(), g.strLit(), g.smallInt(), g.strLit()),
			fmt.Sprintf("print(show(sorted(rows, key=operator.itemgetter(%s))))", g.pick("0", "1", "1, 0")),
			fmt.Sprintf("print(show(list(map(operator.itemgetter(%s), [%s]))))", g.pick("'a'", "'b'", "'x'"), d),
			fmt.Sprintf("print(show([k for k, grp in itertools.groupby(sorted(rows), operator.itemgetter(0))]))"))
	case 6:
		g.emit("class P:\n    def __init__(self, x, y):\n        self.x = x\n        self.y = y\n        self.sub = self if x > 0 else None\n    def dist(self, k=1):\n        return abs(self.x) * k + abs(self.y)",
			fmt.Sprintf("ps = [P(%s, %s), P(%s, %s), P(%s, %s)]", g.smallInt(), g.smallInt(), g.smallInt(), g.smallInt(), g.smallInt(), g.smallInt()),
			fmt.Sprintf("ag = operator.attrgetter(%s)", g.pick("'x'", "'y'", "'x', 'y'", "'sub.x'", "'z'", "'sub.sub.y'")), "print(ag)",
			"print(show([ag(p) for p in ps]))",
			fmt.Sprintf("print(show([p.x for p in sorted(ps, key=operator.attrgetter(%s))]))", g.pick("'x'", "'y', 'x'")),
			fmt.Sprintf("mc = operator.methodcaller('dist'%s)", g.pick("", ", 2", ", k=3", ", 1, 2")), "print(mc)",
			"print(show(list(map(mc, ps))))")
	case 7:
		g.emit(fmt.Sprintf("mc = operator.methodcaller(%s)", g.pick("'upper'", "'split', '-'", "'replace', 'a', 'b'", "'count', 'a'", "'strip'", "'startswith', 'a'", "'zfill', 5")),
			"print(mc)", fmt.Sprintf("print(show(mc(%s)))", g.expr(tStr, 1)),
			fmt.Sprintf("print(show(list(map(mc, %s))))", g.expr(tStrList, 1)))
	default:
		v := g.pick(fmt.Sprintf("[%s, %s]", g.smallInt(), g.smallInt()), fmt.Sprintf("{%s: 1}", g.strLit()), "bytearray(b'abc')")
		g.emit("a = "+v, fmt.Sprintf("operator.%s", g.pick(
			"setitem(a, 0, "+g.smallInt()+")",
			"delitem(a, 0)",
			"setitem(a, slice(0, 1), [7, 8])",
			"iconcat(a, [9])")), "print(show(a))",
			fmt.Sprintf("print(operator.is_(None, None), operator.is_not(%s, None), operator.not_(a))", g.smallInt()))
	}
}

// mathNew draws on the math functions added in issue 18; approx() prints
// the libm-like ones to 12 significant digits (CPython's glibc results are
// within a few ulps of the PVM's correctly rounded ones). lgamma is kept
// away from its roots 1 and 2, where the two differ by 1e-15 absolute.
func (g *gen) mathNew() string {
	f := func() string { return g.expr(tFloat, 1) }
	switch g.n(7) {
	case 0:
		return fmt.Sprintf("math.%s(%s)", g.pick("cbrt", "exp2", "erf", "erfc"), g.pick(f(), g.expr(tInt, 1), g.smallInt()))
	case 1:
		return fmt.Sprintf("math.gamma(%s)", g.pick(f(), g.smallInt(), g.pick("0.5", "-0.5", "-2.5", "171.5", "1e-300", "-1e-300", "25.25", "-170.5")))
	case 2:
		return fmt.Sprintf("math.lgamma(%s)", g.pick(g.smallInt(), g.pick("0.5", "-0.5", "-2.5", "1e-300", "3.75", "100.5", "1e300", "float('inf')", "float('-inf')", "float('nan')", "-1e-5", "0.25")))
	case 3:
		return fmt.Sprintf("repr(math.remainder(%s, %s))", g.pick(f(), g.expr(tInt, 1)), g.pick(f(), g.smallInt(), "2.0", "0.75"))
	case 4:
		return fmt.Sprintf("math.dist(%s, %s)", g.pick("(0, 0)", "["+f()+", 1.5]", "(3, 4)", "(1e308, -1e308)"), g.pick("(0, 0)", "(3.0, "+f()+")", "[-1, 2]"))
	case 5:
		return fmt.Sprintf("math.dist(%s)", g.pick("[(1, 2)]", "(1, 2), (3,)", "(), ()", "(1,), (2,)", "[1, 2, 3], [4, 5, 6]"))
	default:
		return fmt.Sprintf("', '.join([format(math.%s(x), '.12g') for x in (%s, %s)])", g.pick("erf", "erfc", "cbrt", "exp2"), f(), g.smallInt())
	}
}

func (g *gen) decimalUnit() {
	d := func() string {
		if g.chance(15) {
			// NaN payloads (third campaign).
			return "decimal.Decimal(" + g.pick("'NaN123'", "'-NaN0045'", "'sNaN7'", "'NaN0'", "'-sNaN'", "'nan9'", "'NaN"+strings.Repeat("9", 30)+"'") + ")"
		}
		return "decimal.Decimal(" + g.decLit() + ")"
	}
	switch g.n(7) {
	case 6:
		g.emit(fmt.Sprintf("print(%s.%s(%s))", d(), g.pick("max", "min", "compare", "copy_sign", "quantize", "same_quantum", "compare_total", "fma", "compare_signal"), g.pick(g.smallInt(), "True", g.smallInt()+", "+g.smallInt(), "1.5", "'1'")))
	case 0:
		g.emit(fmt.Sprintf("print(%s.%s())", d(), g.pick("exp", "ln", "log10", "logb", "sqrt", "to_eng_string", "number_class", "is_normal", "is_subnormal", "canonical", "conjugate", "adjusted", "as_integer_ratio", "radix")))
	case 1:
		g.emit(fmt.Sprintf("print(show(%s.as_tuple()))", d()), fmt.Sprintf("t = %s.as_tuple()", d()), "print(t.sign, show(t.digits), t.exponent, show(decimal.Decimal(t)))")
	case 2:
		g.emit(fmt.Sprintf("print(%s.%s(%s))", d(), g.pick("copy_sign", "max", "min", "max_mag", "min_mag", "compare_total", "compare_total_mag", "same_quantum", "compare", "quantize", "compare_signal"), d()))
	case 3:
		g.emit(fmt.Sprintf("print(%s.fma(%s, %s), %s.scaleb(%d))", d(), d(), d(), d(), g.n(9)-4))
	case 4:
		g.emit(fmt.Sprintf("print(decimal.Decimal.from_float(%s), decimal.Decimal(%s).real, decimal.Decimal(%s).imag)", g.pick("0.1", "-2.5", "float('inf')", "1e-7", "3", "-0.0"), g.decLit(), g.decLit()))
	default:
		g.emit(fmt.Sprintf("x = decimal.Decimal(%s)", g.pick("'2'", "'10'", "'0.5'", "'1E+10'", "'123456789'", "'1e-20'", "'-1'", "'0'", "'1'", "'100'", "'2.718281828'")),
			"print(x.exp(), x.ln() if x > 0 else None, x.log10() if x > 0 else None)",
			"print((x.exp().ln() - x) if abs(x) < 100 else None)")
	}
}

// asyncUnit makes a coroutine program driven by asyncio.run: awaits of
// coroutines and awaitables, async for over a class with __anext__, async
// with, await in comprehensions, exceptions through await and
// asyncio.sleep(0).
func (g *gen) asyncUnit() {
	n := g.n(5) + 1
	switch g.n(9) {
	case 6:
		g.emit("async def one():\n    return 1",
			"c = one()",
			fmt.Sprintf("print(%s)", g.pick("asyncio.run(c), end=' ')\ntry:\n    asyncio.run(c)\nexcept RuntimeError as e:\n    print(e)",
				"c.close(), end=' ')\ntry:\n    c.send(None)\nexcept RuntimeError as e:\n    print(e)",
				"type(c).__name__, c.__name__, c.__qualname__, c.cr_running)\nc.close(",
				"show([asyncio.iscoroutine(x) for x in (c, one, 1)]))\nc.close(")),
			fmt.Sprintf("async def t():\n    try:\n        await asyncio.sleep(0)\n    except %s as e:\n        return 'caught ' + type(e).__name__\n    return 'none'", g.pick("ValueError", "KeyError", "Exception")),
			"c2 = t()\nc2.send(None)",
			fmt.Sprintf("try:\n    c2.throw(%s)\nexcept StopIteration as e:\n    print('stop', e.value)\nexcept BaseException as e:\n    print('!', type(e).__name__)", g.pick("ValueError('a')", "KeyError", "TypeError()", "GeneratorExit")))
	case 7:
		g.emit("class Acc:\n    def __init__(self):\n        self.items = []\n    async def add(self, x):\n        await asyncio.sleep(0)\n        self.items.append(x)\n        return len(self.items)\n    @staticmethod\n    async def twice(x):\n        return x * 2\n    @classmethod\n    async def make(cls, n):\n        a = cls()\n        for i in range(n):\n            await a.add(await cls.twice(i))\n        return a",
			fmt.Sprintf("a = asyncio.run(Acc.make(%d))", g.n(5)),
			"print(show(a.items))",
			fmt.Sprintf("async def gen_total(xs):\n    total = 0\n    for x in xs:\n        total %s= await Acc.twice(x)\n    return total", g.pick("+", "-", "*", "|")),
			fmt.Sprintf("print(asyncio.run(gen_total(%s)))", g.expr(g.pick2(tList, tRange), 1)))
	case 8:
		g.emit("class Ticker:\n    def __init__(self, n):\n        self.n = n\n    def __aiter__(self):\n        self.i = 0\n        return self\n    async def __anext__(self):\n        self.i += 1\n        if self.i > self.n:\n            raise StopAsyncIteration\n        return self.i",
			fmt.Sprintf("class Guard:\n    async def __aenter__(self):\n        print('in')\n        return self\n    async def __aexit__(self, *exc):\n        print('out', exc[0].__name__ if exc[0] else None)\n        return %s", g.pick("True", "False")),
			fmt.Sprintf("async def main():\n    r = []\n    async with Guard():\n        async for a in Ticker(%d):\n            async for b in Ticker(a):\n                r.append(a * 10 + b)\n        if len(r) > %d:\n            raise IndexError(len(r))\n    return r", g.n(4), g.n(6)),
			"try:\n    print(show(asyncio.run(main())))\nexcept Exception as e:\n    err(e)")
	case 0:
		g.emit(fmt.Sprintf("async def leaf(x):\n    await asyncio.sleep(0)\n    return x %s %s", g.pick("*", "+", "-", "//", "%"), g.smallInt()),
			fmt.Sprintf("async def main():\n    acc = []\n    for i in range(%d):\n        acc.append(await leaf(i))\n    return acc", n),
			"print(show(asyncio.run(main())))")
	case 1:
		g.emit(fmt.Sprintf("class AIt:\n    def __init__(self, n):\n        self.i = 0\n        self.n = n\n    def __aiter__(self):\n        return self\n    async def __anext__(self):\n        if self.i >= self.n:\n            raise StopAsyncIteration\n        self.i += 1\n        return self.i * %s", g.smallInt()),
			fmt.Sprintf("async def main():\n    out = []\n    async for v in AIt(%d):\n        if v %s 3 == 0:\n            %s\n        out.append(v)\n    else:\n        out.append('done')\n    return out", n, "%", g.pick("continue", "break", "pass")),
			"print(show(asyncio.run(main())))")
	case 2:
		g.emit("log = []",
			fmt.Sprintf("class ACM:\n    def __init__(self, name):\n        self.name = name\n    async def __aenter__(self):\n        log.append('enter ' + self.name)\n        return self.name * 2\n    async def __aexit__(self, et, ev, tb):\n        log.append('exit ' + self.name + ' ' + (et.__name__ if et else 'None'))\n        return %s", g.pick("False", "True", "None")),
			fmt.Sprintf("async def main():\n    async with ACM('a') as x, ACM('b') as y:\n        log.append(x + y)\n        %s\n    return 'ok'", g.pick("pass", "raise ValueError('v')", "1 / 0", "log.append(len(log))")),
			"try:\n    print(asyncio.run(main()))\nexcept Exception as e:\n    err(e)",
			"print(show(log))")
	case 3:
		g.emit(fmt.Sprintf("async def sq(x):\n    if x %s 4 == 3:\n        raise KeyError(x)\n    return x * x", "%"),
			fmt.Sprintf("async def main():\n    a = [await sq(i) for i in range(%d) if i != 3]\n    b = {i: await sq(i) for i in range(%d) if i %s 4 != 3}\n    try:\n        await sq(%s)\n    except KeyError as e:\n        a.append(('caught', e.args))\n    return a, b", n, n, "%", g.pick("3", "7", "2")),
			"print(show(asyncio.run(main())))")
	case 4:
		g.emit("class Aw:\n    def __init__(self, v):\n        self.v = v\n    def __await__(self):\n        yield from ()\n        return self.v + 1",
			fmt.Sprintf("async def inner(d):\n    if d == 0:\n        return await Aw(%s)\n    return await inner(d - 1) * 2", g.smallInt()),
			fmt.Sprintf("c = inner(%d)", g.n(5)),
			"print(asyncio.iscoroutine(c), type(c).__name__)",
			"print(asyncio.run(c))",
			fmt.Sprintf("print(asyncio.run(asyncio.sleep(%s, %s)))", g.pick("0", "0.0", "-1"), g.pick("'r'", "None", g.smallInt())))
	default:
		g.emit(fmt.Sprintf("async def fail():\n    await asyncio.sleep(0)\n    raise %s", g.pick("ValueError('x')", "StopIteration", "asyncio.CancelledError()", "TypeError('t')")),
			"async def main():\n    try:\n        await fail()\n    except ValueError as e:\n        return 'v', str(e)\n    finally:\n        print('finally')\n    return 'end'",
			"try:\n    print(show(asyncio.run(main())))\nexcept BaseException as e:\n    print('!', type(e).__name__)",
			fmt.Sprintf("def drive(c):\n    try:\n        c.send(None)\n    except StopIteration as e:\n        return e.value\nasync def k():\n    return %s\nprint(drive(k()))", g.smallInt()))
	}
}
