package modules

import (
	"math/big"
	"sync"

	"github.com/cowboy-chain/cowboy/pvm/meter"
	"github.com/cowboy-chain/cowboy/pvm/object"
	"github.com/cowboy-chain/cowboy/pvm/softfloat"
	"github.com/cowboy-chain/cowboy/pvm/vm"
)

// The math module of CPython 3.11, computed in software (pvm/softfloat) so
// that every node gets the same bits. The float functions are correctly
// rounded (softfloat evaluates them with about 100 guard bits and rounds
// once); CPython uses the platform libm, which is within one ulp, so an
// occasional last-bit difference from CPython is our libm being right
// where glibc is not (pvm/softfloat/testdata/libm_cpython.txt records
// them). Errors follow CPython's math_1, math_2, loghelper and math_pow:
// ValueError("math domain error") for a NaN from non-NaN arguments or a
// pole, OverflowError("math range error") for an overflow.
//
// Metering (pvm/meter, "math module" block): every function charges its
// row on top of the call, and an elementary function whose arguments are
// outside softfloat's fixed-point fast path charges CostMathSlowPath more
// (see eval); functions over an iterable or *args charge per element, and
// the integer functions per 64-bit limb of their operands or per
// multiplication they perform.
//
// Every public name of CPython 3.11's math module is provided. cbrt, erf,
// erfc, gamma and lgamma always take softfloat's big.Float evaluation and
// charge meter.CostMathSpecial (mathSpecial); exp2 is pow(2, x) and costs
// what pow costs; remainder is exact and costs what fmod costs.

func init() { register(vm.ModuleDef{Name: "math", Load: loadMath}) }

var (
	mathDomain = func() error { return object.Errorf(object.ValueError, "math domain error") }
	mathRange  = func() error { return object.Errorf(object.OverflowError, "math range error") }
)

// toF64 converts a math-function argument to a float as PyFloat_AsDouble
// does: floats, ints (OverflowError when too large), subclasses of both,
// and objects with __float__ or __index__.
func toF64(c object.Ctx, v object.Value) (softfloat.F64, error) {
	v = object.BaseOf(v)
	f, ok, err := object.ToFloat(v)
	if err != nil {
		return 0, err
	}
	if ok {
		return softfloat.FromFloat64(f), nil
	}
	if in, isInst := v.(*object.Instance); isInst {
		for _, name := range []string{"__float__", "__index__"} {
			if m, _ := in.Class.Lookup(name); m != nil {
				r, err := c.Call(m, []object.Value{in}, nil)
				if err != nil {
					return 0, err
				}
				if name == "__float__" {
					if _, isF := object.BaseOf(r).(object.Float); !isF {
						return 0, object.Errorf(object.TypeError, "%s.__float__ returned non-float (type %s)", in.Class.Name, object.TypeName(r))
					}
				}
				return toF64(c, r)
			}
		}
	}
	return 0, object.Errorf(object.TypeError, "must be real number, not %s", object.TypeName(v))
}

func pyFloat(x softfloat.F64) object.Value { return object.Float(x.Float64()) }

// boxFloat is pyFloat through the calling thread's FloatBox (one Go
// allocation per 16 results instead of one per result; a float has no
// identity a program or the meter sees).
func boxFloat(c object.Ctx, x softfloat.F64) object.Value {
	if t, ok := c.(*vm.Thread); ok {
		return t.BoxFloat(object.Float(x.Float64()))
	}
	return pyFloat(x)
}

// mathE is math.e, computed once per process rather than at every import
// (softfloat.E evaluates exp(1) in big.Float arithmetic).
var mathE = sync.OnceValue(softfloat.E)

// eval computes the math function name (f, on arguments x and y, or xs
// for hypot) on softfloat's fixed-point fast path when it applies, and
// charges meter.CostMathSlowPath on top when it does not and the work is
// the big.Float evaluation. Special values (NaN, infinities, zeros) are
// decided without either and cost nothing extra.
func eval(c object.Ctx, name string, f func() softfloat.F64, x, y softfloat.F64, xs ...softfloat.F64) (softfloat.F64, error) {
	if r, ok := softfloat.Fast(name, x, y, xs...); ok {
		return r, nil
	}
	ordinary := func(v softfloat.F64) bool { return v.IsFinite() && !v.IsZero() }
	slow := false
	switch name {
	case "hypot":
		for _, v := range xs {
			slow = slow || ordinary(v)
		}
	case "pow", "atan2":
		slow = ordinary(x) && ordinary(y)
	default:
		slow = ordinary(x)
	}
	if slow {
		if err := object.Charge(c, meter.CostMathSlowPath); err != nil {
			return 0, err
		}
	}
	return f(), nil
}

// math1 is CPython's math_1: one float argument, C99 function f. fast
// says that f has a fixed-point fast path under the same name (eval).
func math1(name string, cost uint64, f func(softfloat.F64) softfloat.F64, canOverflow, fast bool) goFunc {
	return func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		if err := oneArg(name, args, kw); err != nil {
			return nil, err
		}
		if err := object.Charge(c, cost); err != nil {
			return nil, err
		}
		x, err := toF64(c, args[0])
		if err != nil {
			return nil, err
		}
		var r softfloat.F64
		if fast {
			if r, err = eval(c, name, func() softfloat.F64 { return f(x) }, x, 0); err != nil {
				return nil, err
			}
		} else {
			r = f(x)
		}
		if r.IsNaN() && !x.IsNaN() {
			return nil, mathDomain()
		}
		if r.IsInf() && x.IsFinite() {
			if canOverflow {
				return nil, mathRange()
			}
			return nil, mathDomain()
		}
		return boxFloat(c, r), nil
	}
}

func oneArg(name string, args []object.Value, kw []object.Kw) error {
	if err := object.NoKw(name, kw); err != nil {
		return err
	}
	if len(args) != 1 {
		return object.Errorf(object.TypeError, "math.%s() takes exactly one argument (%d given)", name, len(args))
	}
	return nil
}

func twoArgs(name string, args []object.Value, kw []object.Kw) error {
	if err := object.NoKw(name, kw); err != nil {
		return err
	}
	if len(args) != 2 {
		return object.Errorf(object.TypeError, "%s expected 2 arguments, got %d", name, len(args))
	}
	return nil
}

// two converts the arguments of a two-float function.
func two(c object.Ctx, name string, cost uint64, args []object.Value, kw []object.Kw) (softfloat.F64, softfloat.F64, error) {
	if err := twoArgs(name, args, kw); err != nil {
		return 0, 0, err
	}
	if err := object.Charge(c, cost); err != nil {
		return 0, 0, err
	}
	x, err := toF64(c, args[0])
	if err != nil {
		return 0, 0, err
	}
	y, err := toF64(c, args[1])
	return x, y, err
}

func loadMath(t *vm.Thread) (*vm.Module, error) {
	m := vm.NewModule("math")
	g := m.Globals
	pi := softfloat.Pi()
	g.Set("pi", pyFloat(pi))
	g.Set("e", pyFloat(mathE()))
	g.Set("tau", pyFloat(softfloat.Add(pi, pi)))
	g.Set("inf", pyFloat(softfloat.Inf))
	g.Set("nan", pyFloat(softfloat.NaN))

	elem, heavy := meter.CostMathElementary, meter.CostMathHeavy
	for _, d := range []struct {
		name        string
		cost        uint64
		f           func(softfloat.F64) softfloat.F64
		canOverflow bool
	}{
		{"exp", elem, softfloat.Exp, true}, {"expm1", elem, softfloat.Expm1, true},
		{"log1p", elem, softfloat.Log1p, false},
		{"sin", elem, softfloat.Sin, false}, {"cos", elem, softfloat.Cos, false}, {"tan", elem, softfloat.Tan, false},
		{"asin", heavy, softfloat.Asin, false}, {"acos", heavy, softfloat.Acos, false}, {"atan", elem, softfloat.Atan, false},
		{"sinh", heavy, softfloat.Sinh, true}, {"cosh", heavy, softfloat.Cosh, true}, {"tanh", heavy, softfloat.Tanh, false},
		{"asinh", heavy, softfloat.Asinh, false}, {"acosh", heavy, softfloat.Acosh, false}, {"atanh", heavy, softfloat.Atanh, false},
	} {
		addFunc(g, d.name, math1(d.name, d.cost, d.f, d.canOverflow, true))
	}
	addFunc(g, "sqrt", math1("sqrt", meter.CostMathSqrt, softfloat.Sqrt, false, false))
	addFunc(g, "fabs", math1("fabs", meter.CostMathSimple, softfloat.Abs, false, false))
	degToRad := softfloat.Div(pi, softfloat.FromInt64(180))
	radToDeg := softfloat.Div(softfloat.FromInt64(180), pi)
	addFunc(g, "radians", math1("radians", meter.CostMathSimple, func(x softfloat.F64) softfloat.F64 { return softfloat.Mul(x, degToRad) }, true, false))
	addFunc(g, "degrees", math1("degrees", meter.CostMathSimple, func(x softfloat.F64) softfloat.F64 { return softfloat.Mul(x, radToDeg) }, true, false))

	addFunc(g, "log", mathLog)
	addFunc(g, "log2", logFunc("log2"))
	addFunc(g, "log10", logFunc("log10"))
	addFunc(g, "pow", mathPow)
	addFunc(g, "atan2", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		y, x, err := two(c, "atan2", heavy, args, kw)
		if err != nil {
			return nil, err
		}
		r, err := eval(c, "atan2", func() softfloat.F64 { return softfloat.Atan2(y, x) }, y, x)
		if err != nil {
			return nil, err
		}
		return boxFloat(c, r), nil
	})
	addFunc(g, "fmod", mathFmod)
	addFunc(g, "copysign", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		x, y, err := two(c, "copysign", meter.CostMathSimple, args, kw)
		if err != nil {
			return nil, err
		}
		return boxFloat(c, softfloat.Copysign(x, y)), nil
	})
	addFunc(g, "hypot", mathHypot)
	addFunc(g, "fsum", mathFsum)
	addFunc(g, "isclose", mathIsclose)
	for name, pred := range map[string]func(softfloat.F64) bool{
		"isfinite": softfloat.F64.IsFinite, "isinf": softfloat.F64.IsInf, "isnan": softfloat.F64.IsNaN,
	} {
		name, pred := name, pred
		addFunc(g, name, func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
			if err := oneArg(name, args, kw); err != nil {
				return nil, err
			}
			if err := object.Charge(c, meter.CostMathSimple); err != nil {
				return nil, err
			}
			x, err := toF64(c, args[0])
			if err != nil {
				return nil, err
			}
			return object.MakeBool(pred(x)), nil
		})
	}
	addFunc(g, "floor", roundFunc("floor", "__floor__", softfloat.Floor))
	addFunc(g, "ceil", roundFunc("ceil", "__ceil__", softfloat.Ceil))
	addFunc(g, "trunc", mathTrunc)
	addFunc(g, "modf", mathModf)
	addFunc(g, "frexp", mathFrexp)
	addFunc(g, "ldexp", mathLdexp)
	addFunc(g, "nextafter", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		x, y, err := two(c, "nextafter", meter.CostMathSimple, args, kw)
		if err != nil {
			return nil, err
		}
		return boxFloat(c, softfloat.Nextafter(x, y)), nil
	})
	addFunc(g, "ulp", math1("ulp", meter.CostMathSimple, softfloat.Ulp, false, false))

	addFunc(g, "cbrt", mathSpecial("cbrt", 2*meter.CostMathSlowPath, softfloat.Cbrt, false))
	addFunc(g, "erf", mathSpecial("erf", meter.CostMathSpecial, softfloat.Erf, false))
	addFunc(g, "erfc", mathSpecial("erfc", meter.CostMathSpecial, softfloat.Erfc, false))
	addFunc(g, "gamma", mathSpecial("gamma", meter.CostMathSpecial, softfloat.Gamma, true))
	addFunc(g, "lgamma", mathSpecial("lgamma", meter.CostMathSpecial, softfloat.Lgamma, true))
	addFunc(g, "exp2", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		if err := oneArg("exp2", args, kw); err != nil {
			return nil, err
		}
		if err := object.Charge(c, meter.CostMathPow); err != nil {
			return nil, err
		}
		x, err := toF64(c, args[0])
		if err != nil {
			return nil, err
		}
		two := softfloat.FromInt64(2)
		r, err := eval(c, "pow", func() softfloat.F64 { return softfloat.Exp2(x) }, two, x)
		if err != nil {
			return nil, err
		}
		if r.IsInf() && x.IsFinite() {
			return nil, mathRange()
		}
		return boxFloat(c, r), nil
	})
	addFunc(g, "remainder", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		x, y, err := two(c, "remainder", meter.CostMathFmod, args, kw)
		if err != nil {
			return nil, err
		}
		r := softfloat.Remainder(x, y)
		if r.IsNaN() && !x.IsNaN() && !y.IsNaN() {
			return nil, mathDomain()
		}
		return boxFloat(c, r), nil
	})
	addFunc(g, "dist", mathDist)

	addFunc(g, "gcd", mathGcd)
	addFunc(g, "lcm", mathLcm)
	addFunc(g, "isqrt", mathIsqrt)
	addFunc(g, "factorial", mathFactorial)
	addFunc(g, "comb", mathComb)
	addFunc(g, "perm", mathPerm)
	addFunc(g, "prod", mathProd)
	return m, nil
}

// loghelper is CPython's loghelper for the function name ("log", "log2"
// or "log10"): ints too large for a float are split as x * 2**e and logged
// as f(x) + f(2) * e (in binary64, as CPython does).
func loghelper(c object.Ctx, v object.Value, name string) (softfloat.F64, error) {
	if err := object.Charge(c, meter.CostMathElementary); err != nil {
		return 0, err
	}
	fn := softfloat.Log
	switch name {
	case "log2":
		fn = softfloat.Log2
	case "log10":
		fn = softfloat.Log10
	}
	f := func(x softfloat.F64) (softfloat.F64, error) {
		return eval(c, name, func() softfloat.F64 { return fn(x) }, x, 0)
	}
	v = object.BaseOf(v)
	switch v.(type) {
	case object.Int, object.Bool, *object.BigInt:
		b := intBig(v)
		if b.Sign() <= 0 {
			return 0, mathDomain()
		}
		x := softfloat.FromBig(b)
		if !x.IsInf() {
			return f(x)
		}
		// _PyLong_Frexp: the top 53 bits, rounded, as a fraction in
		// [0.5, 1) of 2**e.
		e := b.BitLen()
		frac := softfloat.FromRat(b, new(big.Int).Lsh(big.NewInt(1), uint(e)))
		if frac == softfloat.One { // rounded up to 1.0
			frac, e = softfloat.FromFloat64(0.5), e+1
		}
		lf, err := f(frac)
		if err != nil {
			return 0, err
		}
		l2, err := f(softfloat.FromInt64(2))
		if err != nil {
			return 0, err
		}
		return softfloat.Add(lf, softfloat.Mul(l2, softfloat.FromInt64(int64(e)))), nil
	}
	x, err := toF64(c, v)
	if err != nil {
		return 0, err
	}
	r, err := f(x)
	if err != nil {
		return 0, err
	}
	if (r.IsNaN() && !x.IsNaN()) || (r.IsInf() && x.IsFinite()) {
		return 0, mathDomain()
	}
	return r, nil
}

func intBig(v object.Value) *big.Int {
	switch x := v.(type) {
	case object.Int:
		return big.NewInt(int64(x))
	case object.Bool:
		if x {
			return big.NewInt(1)
		}
		return big.NewInt(0)
	case *object.BigInt:
		return new(big.Int).Set(x.Big())
	}
	return nil
}

func logFunc(name string) goFunc {
	return func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		if err := oneArg(name, args, kw); err != nil {
			return nil, err
		}
		r, err := loghelper(c, args[0], name)
		if err != nil {
			return nil, err
		}
		return boxFloat(c, r), nil
	}
}

func mathLog(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
	if err := object.NoKw("log", kw); err != nil {
		return nil, err
	}
	if len(args) < 1 || len(args) > 2 {
		return nil, object.Errorf(object.TypeError, "log expected 1 or 2 arguments, got %d", len(args))
	}
	num, err := loghelper(c, args[0], "log")
	if err != nil {
		return nil, err
	}
	if len(args) == 1 {
		return boxFloat(c, num), nil
	}
	den, err := loghelper(c, args[1], "log")
	if err != nil {
		return nil, err
	}
	if den.IsZero() {
		return nil, object.Errorf(object.ZeroDivisionError, "float division by zero")
	}
	return boxFloat(c, softfloat.Div(num, den)), nil
}

// mathPow is CPython's math_pow: non-finite arguments never raise; a
// finite pair raises ValueError for a NaN result or 0**negative and
// OverflowError for an overflow.
func mathPow(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
	x, y, err := two(c, "pow", meter.CostMathPow, args, kw)
	if err != nil {
		return nil, err
	}
	r, err := eval(c, "pow", func() softfloat.F64 { return softfloat.Pow(x, y) }, x, y)
	if err != nil {
		return nil, err
	}
	if x.IsFinite() && y.IsFinite() && !r.IsFinite() {
		if r.IsNaN() || x.IsZero() {
			return nil, mathDomain()
		}
		return nil, mathRange()
	}
	return boxFloat(c, r), nil
}

func mathFmod(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
	x, y, err := two(c, "fmod", meter.CostMathFmod, args, kw)
	if err != nil {
		return nil, err
	}
	if y.IsInf() && x.IsFinite() {
		return boxFloat(c, x), nil
	}
	r := softfloat.Fmod(x, y)
	if r.IsNaN() && !x.IsNaN() && !y.IsNaN() {
		return nil, mathDomain()
	}
	return boxFloat(c, r), nil
}

func mathHypot(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
	if err := object.NoKw("hypot", kw); err != nil {
		return nil, err
	}
	if err := object.Charge(c, meter.CostMathElementary+uint64(len(args))*meter.CostMathPerElem); err != nil {
		return nil, err
	}
	xs := make([]softfloat.F64, len(args))
	for i, a := range args {
		x, err := toF64(c, a)
		if err != nil {
			return nil, err
		}
		xs[i] = x
	}
	r, err := eval(c, "hypot", func() softfloat.F64 { return softfloat.Hypot(xs...) }, 0, 0, xs...)
	if err != nil {
		return nil, err
	}
	return boxFloat(c, r), nil
}

// mathFsum is CPython's math_fsum (Shewchuk's exact partials, then a
// half-even correction across partials), step for step in softfloat.
func mathFsum(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
	if err := oneArg("fsum", args, kw); err != nil {
		return nil, err
	}
	var p []softfloat.F64
	special, infSum := softfloat.Zero, softfloat.Zero
	err := object.Iterate(c, args[0], func(item object.Value) error {
		x, err := toF64(c, item)
		if err != nil {
			return err
		}
		if err := object.Charge(c, meter.CostMathPerElem+uint64(len(p))); err != nil {
			return err
		}
		xsave := x
		i := 0
		for _, y := range p {
			if softfloat.Lt(softfloat.Abs(x), softfloat.Abs(y)) {
				x, y = y, x
			}
			hi := softfloat.Add(x, y)
			lo := softfloat.Sub(y, softfloat.Sub(hi, x))
			if !lo.IsZero() {
				p[i] = lo
				i++
			}
			x = hi
		}
		p = p[:i]
		if !x.IsZero() {
			if !x.IsFinite() {
				if xsave.IsFinite() {
					return object.Errorf(object.OverflowError, "intermediate overflow in fsum")
				}
				if xsave.IsInf() {
					infSum = softfloat.Add(infSum, xsave)
				}
				special = softfloat.Add(special, xsave)
				p = p[:0]
			} else {
				if err := object.Alloc(c, 8); err != nil {
					return err
				}
				p = append(p, x)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if !special.IsZero() {
		if infSum.IsNaN() {
			return nil, object.Errorf(object.ValueError, "-inf + inf in fsum")
		}
		return boxFloat(c, special), nil
	}
	hi := softfloat.Zero
	lo := softfloat.Zero
	n := len(p)
	if n > 0 {
		n--
		hi = p[n]
		for n > 0 {
			x := hi
			n--
			y := p[n]
			hi = softfloat.Add(x, y)
			yr := softfloat.Sub(hi, x)
			lo = softfloat.Sub(y, yr)
			if !lo.IsZero() {
				break
			}
		}
		if n > 0 && ((softfloat.Lt(lo, softfloat.Zero) && softfloat.Lt(p[n-1], softfloat.Zero)) ||
			(softfloat.Lt(softfloat.Zero, lo) && softfloat.Lt(softfloat.Zero, p[n-1]))) {
			y := softfloat.Mul(lo, softfloat.FromInt64(2))
			x := softfloat.Add(hi, y)
			yr := softfloat.Sub(x, hi)
			if softfloat.Eq(y, yr) {
				hi = x
			}
		}
	}
	return boxFloat(c, hi), nil
}

// mathIsclose is isclose(a, b, *, rel_tol=1e-09, abs_tol=0.0).
func mathIsclose(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
	if len(args) > 2 {
		return nil, object.Errorf(object.TypeError, "isclose() takes exactly 2 positional arguments (%d given)", len(args))
	}
	a, err := object.UnpackArgs("isclose", args, kw, "a", "b", "rel_tol?", "abs_tol?")
	if err != nil {
		return nil, err
	}
	if err := object.Charge(c, meter.CostMathSimple); err != nil {
		return nil, err
	}
	var v [4]softfloat.F64
	v[2], _ = softfloat.Parse("1e-09")
	for i, x := range a {
		if x == nil {
			continue
		}
		if v[i], err = toF64(c, x); err != nil {
			return nil, err
		}
	}
	x, y, rel, abs := v[0], v[1], v[2], v[3]
	if softfloat.Lt(rel, softfloat.Zero) || softfloat.Lt(abs, softfloat.Zero) {
		return nil, object.Errorf(object.ValueError, "tolerances must be non-negative")
	}
	if softfloat.Eq(x, y) {
		return object.True, nil
	}
	if x.IsInf() || y.IsInf() {
		return object.False, nil
	}
	diff := softfloat.Abs(softfloat.Sub(y, x))
	return object.MakeBool(softfloat.Le(diff, softfloat.Abs(softfloat.Mul(rel, y))) ||
		softfloat.Le(diff, softfloat.Abs(softfloat.Mul(rel, x))) ||
		softfloat.Le(diff, abs)), nil
}

// roundFunc is floor and ceil: ints come back unchanged, objects with the
// dunder method use it, everything else goes through float.
func roundFunc(name, dunder string, f func(softfloat.F64) softfloat.F64) goFunc {
	return func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		if err := oneArg(name, args, kw); err != nil {
			return nil, err
		}
		if err := object.Charge(c, meter.CostMathSimple); err != nil {
			return nil, err
		}
		if in, ok := args[0].(*object.Instance); ok {
			if m, _ := in.Class.Lookup(dunder); m != nil {
				return c.Call(m, []object.Value{in}, nil)
			}
		}
		switch v := object.BaseOf(args[0]).(type) {
		case object.Int, *object.BigInt:
			return v, nil
		case object.Bool:
			n, _ := object.AsInt64(v)
			return object.Int(n), nil
		}
		x, err := toF64(c, args[0])
		if err != nil {
			return nil, err
		}
		return object.FloatToInt(f(x).Float64())
	}
}

func mathTrunc(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
	if err := oneArg("trunc", args, kw); err != nil {
		return nil, err
	}
	if err := object.Charge(c, meter.CostMathSimple); err != nil {
		return nil, err
	}
	if in, ok := args[0].(*object.Instance); ok {
		if m, _ := in.Class.Lookup("__trunc__"); m != nil {
			return c.Call(m, []object.Value{in}, nil)
		}
	}
	switch v := object.BaseOf(args[0]).(type) {
	case object.Int, *object.BigInt:
		return v, nil
	case object.Bool:
		n, _ := object.AsInt64(v)
		return object.Int(n), nil
	case object.Float:
		return object.FloatToInt(float64(v))
	}
	return nil, object.Errorf(object.TypeError, "type %s doesn't define __trunc__ method", object.TypeName(args[0]))
}

func mathModf(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
	if err := oneArg("modf", args, kw); err != nil {
		return nil, err
	}
	if err := object.Charge(c, meter.CostMathSimple); err != nil {
		return nil, err
	}
	x, err := toF64(c, args[0])
	if err != nil {
		return nil, err
	}
	switch {
	case x.IsInf():
		return object.Tuple{pyFloat(softfloat.Copysign(softfloat.Zero, x)), pyFloat(x)}, nil
	case x.IsNaN():
		return object.Tuple{pyFloat(x), pyFloat(x)}, nil
	}
	ip := softfloat.Trunc(x)
	return object.Tuple{pyFloat(softfloat.Copysign(softfloat.Sub(x, ip), x)), pyFloat(ip)}, nil
}

func mathFrexp(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
	if err := oneArg("frexp", args, kw); err != nil {
		return nil, err
	}
	if err := object.Charge(c, meter.CostMathSimple); err != nil {
		return nil, err
	}
	x, err := toF64(c, args[0])
	if err != nil {
		return nil, err
	}
	m, e := softfloat.Frexp(x)
	return object.Tuple{pyFloat(m), object.Int(e)}, nil
}

func mathLdexp(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
	if err := twoArgs("ldexp", args, kw); err != nil {
		return nil, err
	}
	if err := object.Charge(c, meter.CostMathSimple); err != nil {
		return nil, err
	}
	x, err := toF64(c, args[0])
	if err != nil {
		return nil, err
	}
	var e int64
	switch v := object.BaseOf(args[1]).(type) {
	case object.Int, object.Bool:
		e, _ = object.AsInt64(v)
	case *object.BigInt:
		e = 1 << 40
		if v.Big().Sign() < 0 {
			e = -e
		}
	default:
		return nil, object.Errorf(object.TypeError, "Expected an int as second argument to ldexp.")
	}
	if x.IsZero() || !x.IsFinite() {
		return boxFloat(c, x), nil
	}
	if e > 1<<20 {
		e = 1 << 20
	} else if e < -(1 << 20) {
		e = -(1 << 20)
	}
	r := softfloat.Ldexp(x, int(e))
	if r.IsInf() {
		return nil, mathRange()
	}
	return boxFloat(c, r), nil
}

// Integer functions.

// mathIntArg converts an argument of an integer function (an int, a bool, a
// subclass of int, or an object with __index__).
func mathIntArg(c object.Ctx, v object.Value) (*big.Int, error) {
	v = object.BaseOf(v)
	if b := intBig(v); b != nil {
		return b, nil
	}
	if in, ok := v.(*object.Instance); ok {
		if m, _ := in.Class.Lookup("__index__"); m != nil {
			r, err := c.Call(m, []object.Value{in}, nil)
			if err != nil {
				return nil, err
			}
			if b := intBig(object.BaseOf(r)); b != nil {
				return b, nil
			}
			return nil, object.Errorf(object.TypeError, "__index__ returned non-int (type %s)", object.TypeName(r))
		}
	}
	return nil, object.Errorf(object.TypeError, "'%s' object cannot be interpreted as an integer", object.TypeName(v))
}

// chargeLimbs charges per 64-bit limb of the operands.
func chargeLimbs(c object.Ctx, xs ...*big.Int) error {
	n := uint64(0)
	for _, x := range xs {
		n += uint64(x.BitLen()/64) + 1
	}
	return object.Charge(c, n*meter.CostMathIntPerLimb)
}

func mathGcd(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
	if err := object.NoKw("gcd", kw); err != nil {
		return nil, err
	}
	g := new(big.Int)
	for _, a := range args {
		x, err := mathIntArg(c, a)
		if err != nil {
			return nil, err
		}
		if err := chargeLimbs(c, x, g); err != nil {
			return nil, err
		}
		g.GCD(nil, nil, g.Abs(g), x.Abs(x))
	}
	return object.MakeBigInt(g)
}

func mathLcm(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
	if err := object.NoKw("lcm", kw); err != nil {
		return nil, err
	}
	l := big.NewInt(1)
	for _, a := range args {
		x, err := mathIntArg(c, a)
		if err != nil {
			return nil, err
		}
		if err := chargeLimbs(c, x, l); err != nil {
			return nil, err
		}
		x.Abs(x)
		if x.Sign() == 0 || l.Sign() == 0 {
			l.SetInt64(0)
			continue
		}
		g := new(big.Int).GCD(nil, nil, l, x)
		l.Mul(l, x.Quo(x, g))
		if l.BitLen() > meter.MaxIntBits {
			return nil, object.Errorf(object.OverflowError, "int exceeds the %d-bit limit", meter.MaxIntBits)
		}
	}
	return object.MakeBigInt(l)
}

func mathIsqrt(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
	if err := oneArg("isqrt", args, kw); err != nil {
		return nil, err
	}
	n, err := mathIntArg(c, args[0])
	if err != nil {
		return nil, err
	}
	if n.Sign() < 0 {
		return nil, object.Errorf(object.ValueError, "isqrt() argument must be nonnegative")
	}
	if err := chargeLimbs(c, n, n); err != nil {
		return nil, err
	}
	return object.MakeBigInt(n.Sqrt(n))
}

// product multiplies lo*(lo+1)*...*hi (lo <= hi+1), failing as soon as the
// running product passes the PVM's int limit; each multiplication charges
// per limb of the running product.
func product(c object.Ctx, lo, hi *big.Int) (*big.Int, error) {
	r := big.NewInt(1)
	one := big.NewInt(1)
	for i := new(big.Int).Set(lo); i.Cmp(hi) <= 0; i.Add(i, one) {
		if err := chargeLimbs(c, r); err != nil {
			return nil, err
		}
		r.Mul(r, i)
		if r.BitLen() > meter.MaxIntBits {
			return nil, object.Errorf(object.OverflowError, "int exceeds the %d-bit limit", meter.MaxIntBits)
		}
	}
	return r, nil
}

func mathFactorial(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
	if err := oneArg("factorial", args, kw); err != nil {
		return nil, err
	}
	n, err := mathIntArg(c, args[0])
	if err != nil {
		return nil, err
	}
	if n.Sign() < 0 {
		return nil, object.Errorf(object.ValueError, "factorial() not defined for negative values")
	}
	r, err := product(c, big.NewInt(2), n)
	if err != nil {
		return nil, err
	}
	return object.MakeBigInt(r)
}

func nonNegative(c object.Ctx, v object.Value, what string) (*big.Int, error) {
	x, err := mathIntArg(c, v)
	if err != nil {
		return nil, err
	}
	if x.Sign() < 0 {
		return nil, object.Errorf(object.ValueError, "%s must be a non-negative integer", what)
	}
	return x, nil
}

func mathPerm(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
	if err := object.NoKw("perm", kw); err != nil {
		return nil, err
	}
	if len(args) < 1 || len(args) > 2 {
		return nil, object.Errorf(object.TypeError, "perm expected at most 2 arguments, got %d", len(args))
	}
	n, err := nonNegative(c, args[0], "n")
	if err != nil {
		return nil, err
	}
	if len(args) == 1 || args[1] == object.None {
		r, err := product(c, big.NewInt(2), n)
		if err != nil {
			return nil, err
		}
		return object.MakeBigInt(r)
	}
	k, err := nonNegative(c, args[1], "k")
	if err != nil {
		return nil, err
	}
	if k.Cmp(n) > 0 {
		return object.Int(0), nil
	}
	lo := new(big.Int).Sub(n, k)
	r, err := product(c, lo.Add(lo, big.NewInt(1)), n)
	if err != nil {
		return nil, err
	}
	return object.MakeBigInt(r)
}

func mathComb(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
	if err := twoArgs("comb", args, kw); err != nil {
		return nil, err
	}
	n, err := nonNegative(c, args[0], "n")
	if err != nil {
		return nil, err
	}
	k, err := nonNegative(c, args[1], "k")
	if err != nil {
		return nil, err
	}
	if k.Cmp(n) > 0 {
		return object.Int(0), nil
	}
	if nk := new(big.Int).Sub(n, k); nk.Cmp(k) < 0 {
		k = nk
	}
	// comb(n, k) >= 2**k for k <= n/2, so a k beyond the int limit fails
	// before any work.
	if k.Cmp(big.NewInt(meter.MaxIntBits)) > 0 {
		return nil, object.Errorf(object.OverflowError, "int exceeds the %d-bit limit", meter.MaxIntBits)
	}
	r := big.NewInt(1)
	kk := k.Int64()
	for i := int64(0); i < kk; i++ {
		if err := chargeLimbs(c, r); err != nil {
			return nil, err
		}
		f := new(big.Int).Sub(n, big.NewInt(i))
		r.Mul(r, f)
		r.Quo(r, big.NewInt(i+1)) // exact: r is now comb(n, i+1)
		if r.BitLen() > meter.MaxIntBits {
			return nil, object.Errorf(object.OverflowError, "int exceeds the %d-bit limit", meter.MaxIntBits)
		}
	}
	return object.MakeBigInt(r)
}

func mathProd(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
	if len(args) != 1 {
		return nil, object.Errorf(object.TypeError, "prod() takes exactly 1 positional argument (%d given)", len(args))
	}
	a, err := object.UnpackArgs("prod", nil, kw, "start?")
	if err != nil {
		return nil, err
	}
	var acc object.Value = object.Int(1)
	if a[0] != nil {
		acc = a[0]
	}
	err = object.Iterate(c, args[0], func(v object.Value) error {
		if err := object.Charge(c, meter.CostMathPerElem); err != nil {
			return err
		}
		r, err := object.Binary(c, object.OpMul, acc, v)
		acc = r
		return err
	})
	return acc, err
}

// mathSpecial wraps one of softfloat's special functions (cbrt, erf, erfc,
// gamma, lgamma) as CPython's math_1 does: a NaN from a non-NaN argument is
// ValueError, an infinity from a finite argument is ValueError at a pole
// (zero and the negative integers, for gamma and lgamma) and
// OverflowError otherwise. They have no fixed-point fast path: an ordinary
// argument always costs the big.Float evaluation (cost).
func mathSpecial(name string, cost uint64, f func(softfloat.F64) softfloat.F64, poles bool) goFunc {
	return func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		if err := oneArg(name, args, kw); err != nil {
			return nil, err
		}
		if err := object.Charge(c, meter.CostMathHeavy); err != nil {
			return nil, err
		}
		x, err := toF64(c, args[0])
		if err != nil {
			return nil, err
		}
		if x.IsFinite() && !x.IsZero() {
			if err := object.Charge(c, cost); err != nil {
				return nil, err
			}
		}
		r := f(x)
		if r.IsNaN() && !x.IsNaN() {
			return nil, mathDomain()
		}
		if r.IsInf() && x.IsFinite() {
			if poles && (x.IsZero() || (softfloat.Trunc(x) == x && x.Signbit())) {
				return nil, mathDomain()
			}
			return nil, mathRange()
		}
		return boxFloat(c, r), nil
	}
}

// mathDist is CPython's math.dist: the Euclidean distance between two
// points given as iterables of the same length (CPython takes any
// iterable: it converts non-tuples with PySequence_Tuple), as hypot of the
// coordinate differences (each difference rounded to binary64 first, as
// CPython does).
func mathDist(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
	if err := twoArgs("dist", args, kw); err != nil {
		return nil, err
	}
	var pts [2][]softfloat.F64
	for i, a := range args {
		err := object.Iterate(c, a, func(item object.Value) error {
			x, err := toF64(c, item)
			if err != nil {
				return err
			}
			pts[i] = append(pts[i], x)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	if len(pts[0]) != len(pts[1]) {
		return nil, object.Errorf(object.ValueError, "both points must have the same number of dimensions")
	}
	if err := object.Charge(c, meter.CostMathElementary+uint64(len(pts[0]))*meter.CostMathPerElem); err != nil {
		return nil, err
	}
	d := make([]softfloat.F64, len(pts[0]))
	for i := range d {
		d[i] = softfloat.Abs(softfloat.Sub(pts[0][i], pts[1][i]))
	}
	r, err := eval(c, "hypot", func() softfloat.F64 { return softfloat.Hypot(d...) }, 0, 0, d...)
	if err != nil {
		return nil, err
	}
	return boxFloat(c, r), nil
}
