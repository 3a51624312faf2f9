package modules

import (
	"errors"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/cockroachdb/apd/v3"

	"github.com/cowboy-chain/cowboy/pvm/meter"
	"github.com/cowboy-chain/cowboy/pvm/object"
	"github.com/cowboy-chain/cowboy/pvm/vm"
)

// The decimal module on github.com/cockroachdb/apd: Decimal with CPython's
// arithmetic, comparisons, hashing and str/repr, under one fixed context
// (prec=28, ROUND_HALF_EVEN, Emin=-999999, Emax=999999, traps
// InvalidOperation, DivisionByZero and Overflow). The context cannot be
// changed: getcontext() returns it read-only, and setcontext and
// localcontext raise, so every node computes the same digits.
//
// Differences from CPython: apd's system limit on exponents is 100000, so a
// value whose adjusted exponent passes +-100000 raises Overflow (or
// Underflow) where CPython's Emax of 999999 would allow it; the Context
// methods and a few rarely used Decimal methods (logical_*, rotate, shift,
// next_minus/next_plus/next_toward, remainder_near, compare_signal) are
// absent; TypeError messages name
// the type 'Decimal', not 'decimal.Decimal'. exp, ln and log10 are
// correctly rounded as CPython's (decimal_explog.go); as_tuple returns a
// DecimalTuple.
//
// A Decimal is an instance of the class decimal.Decimal whose Go value (an
// apd.Decimal) is held in Instance.Base; the operators are the class's
// dunder methods, so int and Decimal mix as in CPython and float does not.
//
// Metering: meter.CostDecimalOp per operation plus
// meter.CostDecimalPerDigit per digit of the operands and result.

func init() { register(vm.ModuleDef{Name: "decimal", Load: loadDecimal}) }

// decValue is the Go payload of a Decimal instance.
type decValue struct{ d apd.Decimal }

// Type implements object.Value (the payload is never seen by Python code).
func (*decValue) Type() *object.Class { return object.ObjectClass }

// Repr implements object.Value.
func (v *decValue) Repr(object.Ctx) (string, error) { return decString(&v.d), nil }

// Truth implements object.Value.
func (v *decValue) Truth(object.Ctx) (bool, error) { return !v.d.IsZero(), nil }

// Hash implements object.Value.
func (v *decValue) Hash(object.Ctx) (int64, error) { return 0, nil }

// decMod is the per-call state of the module.
type decMod struct {
	cls, ctxCls *object.Class
	tupleCls    *object.Class
	exc         map[string]*object.Class
	ctx         *apd.Context
}

// The rounding constants, CPython's strings, and apd's rounders.
var decRoundings = map[string]apd.Rounder{
	"ROUND_DOWN": apd.RoundDown, "ROUND_HALF_UP": apd.RoundHalfUp, "ROUND_HALF_EVEN": apd.RoundHalfEven,
	"ROUND_CEILING": apd.RoundCeiling, "ROUND_FLOOR": apd.RoundFloor, "ROUND_UP": apd.RoundUp,
	"ROUND_HALF_DOWN": apd.RoundHalfDown, "ROUND_05UP": apd.Round05Up,
}

func decString(d *apd.Decimal) string {
	switch d.Form {
	case apd.NaN, apd.NaNSignaling:
		s := "NaN"
		if d.Form == apd.NaNSignaling {
			s = "sNaN"
		}
		if d.Negative {
			s = "-" + s
		}
		return s + decPayload(d)
	case apd.Infinite:
		if d.Negative {
			return "-Infinity"
		}
		return "Infinity"
	}
	if d.IsZero() && d.Exponent < -6 {
		// The General Decimal Arithmetic to-scientific-string rule for a
		// zero; apd pads zeros with places instead (CockroachDB's format).
		s := "0E" + strconv.Itoa(int(d.Exponent))
		if d.Negative {
			s = "-" + s
		}
		return s
	}
	return d.String()
}

func loadDecimal(t *vm.Thread) (*vm.Module, error) {
	md := vm.NewModule("decimal")
	g := md.Globals
	m := &decMod{exc: map[string]*object.Class{}}
	m.ctx = &apd.Context{
		Precision:   28,
		Rounding:    apd.RoundHalfEven,
		MaxExponent: 999999,
		MinExponent: -999999,
		Traps: apd.SystemOverflow | apd.SystemUnderflow | apd.Overflow | apd.DivisionUndefined |
			apd.DivisionByZero | apd.DivisionImpossible | apd.InvalidOperation,
	}
	base := errorClass("decimal", "DecimalException", object.ArithmeticError)
	m.exc["DecimalException"] = base
	for _, e := range []struct {
		name  string
		bases []string
		extra *object.Class
	}{
		{"Clamped", []string{"DecimalException"}, nil},
		{"InvalidOperation", []string{"DecimalException"}, nil},
		{"ConversionSyntax", []string{"InvalidOperation"}, nil},
		{"DivisionByZero", []string{"DecimalException"}, object.ZeroDivisionError},
		{"DivisionImpossible", []string{"InvalidOperation"}, nil},
		{"DivisionUndefined", []string{"InvalidOperation"}, object.ZeroDivisionError},
		{"Inexact", []string{"DecimalException"}, nil},
		{"Rounded", []string{"DecimalException"}, nil},
		{"Subnormal", []string{"DecimalException"}, nil},
		{"Overflow", []string{"Inexact", "Rounded"}, nil},
		{"Underflow", []string{"Inexact", "Rounded", "Subnormal"}, nil},
		{"FloatOperation", []string{"DecimalException"}, object.TypeError},
	} {
		var bases []*object.Class
		for _, b := range e.bases {
			bases = append(bases, m.exc[b])
		}
		if e.extra != nil {
			bases = append(bases, e.extra)
		}
		m.exc[e.name] = errorClass("decimal", e.name, bases...)
	}
	for n, k := range m.exc {
		g.Set(n, k)
	}
	for n := range decRoundings {
		g.Set(n, object.Str(n))
	}
	g.Set("MAX_PREC", object.Int(999999999999999999))
	g.Set("MAX_EMAX", object.Int(999999999999999999))
	g.Set("MIN_EMIN", object.Int(-999999999999999999))

	var err error
	m.cls, err = object.NewClass("Decimal", "decimal", nil, object.NewStrDict())
	if err != nil {
		return nil, err
	}
	m.cls.New = func(c object.Ctx, cls *object.Class, args []object.Value, kw []object.Kw) (object.Value, error) {
		a, err := object.UnpackArgs("Decimal", args, kw, "value?", "context?")
		if err != nil {
			return nil, err
		}
		if a[0] == nil {
			return m.wrap(c, apd.New(0, 0))
		}
		d, err := m.convert(c, a[0], true)
		if err != nil {
			return nil, err
		}
		if d == nil {
			return nil, object.Errorf(object.TypeError, "conversion from %s to Decimal is not supported", object.TypeName(a[0]))
		}
		return m.wrapExact(c, d)
	}
	// DecimalTuple is CPython's named tuple (sign, digits, exponent).
	m.tupleCls, err = object.NewClass("DecimalTuple", "decimal", []*object.Class{object.TupleClass}, object.NewStrDict())
	if err != nil {
		return nil, err
	}
	for i, f := range []string{"sign", "digits", "exponent"} {
		i := i
		get := object.NewBuiltin(f, func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
			if in, ok := object.BaseOf(args[0]).(object.Tuple); ok && len(args) == 1 && len(in) == 3 {
				return in[i], nil
			}
			return nil, object.Errorf(object.TypeError, "descriptor for 'DecimalTuple' objects doesn't apply to this object")
		})
		m.tupleCls.Dict.Set(f, &object.Property{Get: get, Set: object.None, Del: object.None})
	}
	addMethod(m.tupleCls, "__repr__", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		t, ok := object.BaseOf(args[0]).(object.Tuple)
		if !ok || len(t) != 3 {
			return nil, object.Errorf(object.TypeError, "DecimalTuple.__repr__ needs a DecimalTuple")
		}
		var parts [3]string
		for i, v := range t {
			r, err := object.Repr(c, v)
			if err != nil {
				return nil, err
			}
			parts[i] = r
		}
		return object.Str("DecimalTuple(sign=" + parts[0] + ", digits=" + parts[1] + ", exponent=" + parts[2] + ")"), nil
	})
	g.Set("DecimalTuple", m.tupleCls)
	m.addMethods()
	m.addMoreMethods()
	g.Set("Decimal", m.cls)

	m.ctxCls = nativeClass("decimal", "Context")
	ctxV := &decContext{m: m}
	g.Set("Context", m.ctxCls)
	fixed := func(name string) goFunc {
		return func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
			return nil, object.Errorf(object.TypeError, "PVM: decimal.%s() is not available: the decimal context is fixed (prec=28, rounding=ROUND_HALF_EVEN)", name)
		}
	}
	addFunc(g, "getcontext", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		return ctxV, object.ArgCount("getcontext", args, 0, 0)
	})
	g.Set("DefaultContext", ctxV)
	g.Set("BasicContext", ctxV)
	addFunc(g, "setcontext", fixed("setcontext"))
	addFunc(g, "localcontext", fixed("localcontext"))
	return md, nil
}

// decContextArg checks the optional context argument of a Decimal method
// (after its operands): None or the module's context, as CPython's C
// module demands ("optional argument must be a context"); the value is
// otherwise unused, since the context is fixed.
func decContextArg(name string, rest []object.Value, kw []object.Kw) error {
	a, err := object.UnpackArgs(name, rest, kw, "context?")
	if err != nil {
		return err
	}
	if a[0] == nil || a[0] == object.None {
		return nil
	}
	if _, ok := a[0].(*decContext); !ok {
		return object.Errorf(object.TypeError, "optional argument must be a context")
	}
	return nil
}

// decContext is the fixed context getcontext() returns.
type decContext struct{ m *decMod }

// Type implements object.Value.
func (x *decContext) Type() *object.Class { return x.m.ctxCls }

// Repr implements object.Value, as CPython prints the default context.
func (x *decContext) Repr(object.Ctx) (string, error) {
	return "Context(prec=28, rounding=ROUND_HALF_EVEN, Emin=-999999, Emax=999999, capitals=1, clamp=0, flags=[], traps=[InvalidOperation, DivisionByZero, Overflow])", nil
}

// Truth implements object.Value.
func (x *decContext) Truth(object.Ctx) (bool, error) { return true, nil }

// Hash implements object.Value.
func (x *decContext) Hash(object.Ctx) (int64, error) { return 28, nil }

// GetAttr implements object.AttrGetter.
func (x *decContext) GetAttr(c object.Ctx, name string) (object.Value, bool, error) {
	switch name {
	case "prec":
		return object.Int(28), true, nil
	case "rounding":
		return object.Str("ROUND_HALF_EVEN"), true, nil
	case "Emin":
		return object.Int(-999999), true, nil
	case "Emax":
		return object.Int(999999), true, nil
	case "capitals":
		return object.Int(1), true, nil
	case "clamp":
		return object.Int(0), true, nil
	}
	return nil, false, nil
}

// SetAttr implements object.AttrSetter: the context is fixed.
func (x *decContext) SetAttr(c object.Ctx, name string, v object.Value) error {
	return object.Errorf(object.AttributeError, "PVM: the decimal context is fixed (prec=28, rounding=ROUND_HALF_EVEN); cannot set '%s'", name)
}

// wrap makes a Decimal instance holding d.
func (m *decMod) wrap(c object.Ctx, d *apd.Decimal) (object.Value, error) {
	return m.wrapExact(c, decFixNaN(d))
}

// wrapExact is wrap without trimming a NaN's payload: for the constructor
// and the quiet copies (copy_abs, copy_negate, copy_sign, canonical),
// which keep every digit as CPython does.
func (m *decMod) wrapExact(c object.Ctx, d *apd.Decimal) (object.Value, error) {
	in, err := object.NewInstance(c, m.cls)
	if err != nil {
		return nil, err
	}
	if err := object.Alloc(c, 32+uint64(d.NumDigits())/2); err != nil {
		return nil, err
	}
	v := &decValue{}
	v.d.Set(d)
	in.Base = v
	return in, nil
}

// dec returns the apd value of a Decimal instance, or nil.
func (m *decMod) dec(v object.Value) *apd.Decimal {
	if in, ok := v.(*object.Instance); ok {
		if dv, ok := in.Base.(*decValue); ok {
			return &dv.d
		}
	}
	return nil
}

// convert turns a Decimal, int (and, when exact is set, str or float) into
// an apd value; nil means the type does not convert.
func (m *decMod) convert(c object.Ctx, v object.Value, explicit bool) (*apd.Decimal, error) {
	if d := m.dec(v); d != nil {
		return d, nil
	}
	switch x := v.(type) {
	case object.Int, object.Bool:
		n, _ := object.AsInt64(x)
		return apd.New(n, 0), nil
	case *object.BigInt:
		return apd.NewWithBigInt(new(apd.BigInt).SetMathBigInt(x.Big()), 0), nil
	case object.Str:
		if !explicit {
			return nil, nil
		}
		s := strings.TrimSpace(strings.ReplaceAll(string(x), "_", ""))
		if err := object.Charge(c, uint64(len(s))*meter.CostDecimalPerDigit); err != nil {
			return nil, err
		}
		low := strings.ToLower(strings.TrimLeft(s, "+-"))
		neg := strings.HasPrefix(s, "-")
		var d *apd.Decimal
		switch {
		case low == "inf" || low == "infinity":
			d = &apd.Decimal{Form: apd.Infinite, Negative: neg}
		case strings.HasPrefix(low, "nan") || strings.HasPrefix(low, "snan"):
			// NaN or sNaN with an optional payload of digits, kept
			// exactly (leading zeros dropped) as CPython does.
			form, digits := apd.NaN, strings.TrimPrefix(low, "nan")
			if strings.HasPrefix(low, "snan") {
				form, digits = apd.NaNSignaling, strings.TrimPrefix(low, "snan")
			}
			d = &apd.Decimal{Form: form, Negative: neg}
			if strings.Trim(digits, "0123456789") != "" || (s[0] == '+' || s[0] == '-') && strings.ContainsAny(s[1:], "+-") {
				return nil, m.signal("ConversionSyntax", "InvalidOperation")
			}
			if digits = strings.TrimLeft(digits, "0"); digits != "" {
				d.Coeff.SetString(digits, 10)
			}
		default:
			var err error
			d, _, err = apd.NewFromString(s)
			if err != nil && strings.Contains(err.Error(), "exponent out of range") {
				// apd's system limit is |exponent| <= 100000, below
				// CPython's Emax (docs in the package comment).
				return nil, m.signal("Overflow", "Overflow")
			}
			if err != nil || s == "" || strings.ContainsAny(s, " \t\n") {
				return nil, m.signal("ConversionSyntax", "InvalidOperation")
			}
		}
		return d, nil
	case object.Float:
		if !explicit {
			return nil, nil
		}
		return decFromFloat(float64(x)), nil
	case *object.List, object.Tuple, *object.Instance:
		if !explicit {
			return nil, nil
		}
		switch object.BaseOf(x).(type) {
		case *object.List, object.Tuple: // DecimalTuple and other subclasses
		default:
			return nil, nil
		}
		if n, _ := object.Len(c, x); n != 3 {
			return nil, object.Errorf(object.ValueError, "argument must be a sequence of length 3")
		}
		return m.fromTuple(c, x)
	}
	return nil, nil
}

// fromTuple is Decimal((sign, digits, exponent)) with the C module's
// checks and messages: sign 0 or 1, digits a tuple (or list) of ints 0-9,
// exponent an int or one of 'F' (infinity), 'n' (NaN), 'N' (signaling
// NaN). The value is spelled as a string and read by the string path, so
// both constructors agree.
func (m *decMod) fromTuple(c object.Ctx, x object.Value) (*apd.Decimal, error) {
	var parts []object.Value
	if err := object.Iterate(c, x, func(v object.Value) error { parts = append(parts, v); return nil }); err != nil {
		return nil, err
	}
	sign, ok := object.AsInt64(parts[0])
	if !ok || (sign != 0 && sign != 1) {
		return nil, object.Errorf(object.ValueError, "sign must be an integer with the value 0 or 1")
	}
	var b strings.Builder
	if sign == 1 {
		b.WriteByte('-')
	}
	var digits []byte
	switch parts[1].(type) {
	case *object.List, object.Tuple:
	default:
		return nil, object.Errorf(object.ValueError, "coefficient must be a tuple of digits")
	}
	if err := object.Iterate(c, parts[1], func(v object.Value) error {
		d, ok := object.AsInt64(v)
		if _, isBool := v.(object.Bool); isBool {
			ok = true
		}
		if !ok || d < 0 || d > 9 {
			return object.Errorf(object.ValueError, "coefficient must be a tuple of digits")
		}
		digits = append(digits, byte('0'+d))
		return nil
	}); err != nil {
		return nil, err
	}
	if err := object.Charge(c, uint64(len(digits))*meter.CostDecimalPerDigit); err != nil {
		return nil, err
	}
	switch e := parts[2].(type) {
	case object.Str:
		payload := strings.TrimLeft(string(digits), "0")
		switch string(e) {
		case "F":
			b.WriteString("Infinity")
		case "n":
			b.WriteString("NaN" + payload)
		case "N":
			b.WriteString("sNaN" + payload)
		default:
			return nil, object.Errorf(object.ValueError, "string argument in the third position must be 'F', 'n' or 'N'")
		}
	case object.Int, object.Bool, *object.BigInt:
		if len(digits) == 0 {
			digits = []byte{'0'}
		}
		b.Write(digits)
		n, ok := object.AsInt64(e)
		if !ok {
			return nil, object.Errorf(object.OverflowError, "Python int too large to convert to C ssize_t")
		}
		b.WriteString("E" + strconv.FormatInt(n, 10))
	default:
		return nil, object.Errorf(object.ValueError, "exponent must be an integer")
	}
	return m.convert(c, object.Str(b.String()), true)
}

// decFromFloat is the exact decimal value of a binary64 (Decimal(0.1) has
// 55 digits), computed from the bits with integers.
func decFromFloat(f float64) *apd.Decimal {
	bits := math.Float64bits(f)
	neg := bits>>63 != 0
	exp := int(bits >> 52 & 0x7ff)
	frac := bits & (1<<52 - 1)
	switch {
	case exp == 0x7ff && frac != 0:
		return &apd.Decimal{Form: apd.NaN, Negative: neg}
	case exp == 0x7ff:
		return &apd.Decimal{Form: apd.Infinite, Negative: neg}
	}
	mant, e := frac|1<<52, exp-1075
	if exp == 0 {
		mant, e = frac, -1074
	}
	coeff := new(big.Int).SetUint64(mant)
	var d *apd.Decimal
	if e >= 0 {
		coeff.Lsh(coeff, uint(e))
		d = apd.NewWithBigInt(new(apd.BigInt).SetMathBigInt(coeff), 0)
	} else {
		// mant / 2**-e = mant * 5**-e / 10**-e
		coeff.Mul(coeff, new(big.Int).Exp(big.NewInt(5), big.NewInt(int64(-e)), nil))
		d = apd.NewWithBigInt(new(apd.BigInt).SetMathBigInt(coeff), int32(e))
		d.Reduce(d)
		if d.Exponent > 0 {
			d.Coeff.Mul(&d.Coeff, new(apd.BigInt).Exp(apd.NewBigInt(10), apd.NewBigInt(int64(d.Exponent)), nil))
			d.Exponent = 0
		}
	}
	d.Negative = neg
	return d
}

// signal raises the decimal exception cls with CPython's message, which
// names the specific condition ([<class 'decimal.ConversionSyntax'>]).
func (m *decMod) signal(cond, cls string) error {
	// As CPython, the argument is the list of signalled condition classes.
	var arg object.Value = object.Str("[<class 'decimal." + cond + "'>]")
	if k := m.exc[cond]; k != nil {
		arg = &object.List{Elems: []object.Value{k}}
	}
	return object.Raise(object.NewException(m.exc[cls], arg))
}

// apdError maps the error of a trapped apd condition to the decimal
// exception CPython raises.
func (m *decMod) apdError(cond apd.Condition, err error) error {
	switch {
	case cond&apd.DivisionByZero != 0:
		return m.signal("DivisionByZero", "DivisionByZero")
	case cond&apd.DivisionUndefined != 0:
		return m.signal("DivisionUndefined", "InvalidOperation")
	case cond&apd.DivisionImpossible != 0:
		return m.signal("DivisionImpossible", "InvalidOperation")
	case cond&apd.InvalidOperation != 0:
		return m.signal("InvalidOperation", "InvalidOperation")
	case cond&(apd.Overflow|apd.SystemOverflow) != 0:
		return m.signal("Overflow", "Overflow")
	}
	return object.Errorf(m.exc["InvalidOperation"], "[<class 'decimal.InvalidOperation'>]: %s", err.Error())
}

// charge meters one operation on the given operands.
func decCharge(c object.Ctx, ds ...*apd.Decimal) error {
	n := meter.CostDecimalOp
	for _, d := range ds {
		n += uint64(d.NumDigits()) * meter.CostDecimalPerDigit
	}
	return object.Charge(c, n)
}

// errDecOverflow reports a result beyond the exponent range.
var errDecOverflow = errors.New("exponent out of range")

// decInf is +Infinity.
var decInf = &apd.Decimal{Form: apd.Infinite}

// nanOperands applies the arithmetic rule for NaN operands (libmpdec's
// mpd_qcheck_nans): a signaling NaN signals InvalidOperation; otherwise
// the first quiet NaN is the result, its payload trimmed. done is false
// when no operand is a NaN.
func (m *decMod) nanOperands(c object.Ctx, ops ...*apd.Decimal) (v object.Value, done bool, err error) {
	for _, x := range ops {
		if x.Form == apd.NaNSignaling {
			return nil, true, m.signal("InvalidOperation", "InvalidOperation")
		}
	}
	for _, x := range ops {
		if x.Form == apd.NaN {
			v, err := m.wrap(c, new(apd.Decimal).Set(x))
			return v, true, err
		}
	}
	return nil, false, nil
}

// decPayload is the diagnostic digits of a NaN ("" when there are none).
func decPayload(d *apd.Decimal) string {
	if d.Coeff.Sign() == 0 {
		return ""
	}
	return d.Coeff.String()
}

// decNaNMod is 10**28: an operation keeps the low 28 digits (the context
// precision, clamp 0) of a NaN payload, as libmpdec's _mpd_fix_nan does.
var decNaNMod = new(apd.BigInt).Exp(apd.NewBigInt(10), apd.NewBigInt(28), nil)

// decFixNaN trims the payload of a NaN result to the precision.
func decFixNaN(d *apd.Decimal) *apd.Decimal {
	if isNaN(d) && d.Coeff.Cmp(decNaNMod) >= 0 {
		d.Coeff.Mod(&d.Coeff, decNaNMod)
	}
	return d
}

func isNaN(d *apd.Decimal) bool { return d.Form == apd.NaN || d.Form == apd.NaNSignaling }

func (m *decMod) addMethods() {
	k := m.cls
	self := func(args []object.Value, name string) (*apd.Decimal, error) {
		if len(args) > 0 {
			if d := m.dec(args[0]); d != nil {
				return d, nil
			}
		}
		return nil, object.Errorf(object.TypeError, "descriptor '%s' for 'decimal.Decimal' objects doesn't apply to this object", name)
	}
	binary := func(name string, reflected bool, op func(d, x, y *apd.Decimal) (apd.Condition, error)) {
		addMethod(k, name, func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
			x, err := self(args, name)
			if err != nil {
				return nil, err
			}
			if err := object.ArgCount(name, args[1:], 1, 1); err != nil {
				return nil, err
			}
			y, err := m.convert(c, args[1], false)
			if err != nil {
				return nil, err
			}
			if y == nil {
				return object.NotImplemented, nil
			}
			if reflected {
				x, y = y, x
			}
			if err := decCharge(c, x, y); err != nil {
				return nil, err
			}
			r := new(apd.Decimal)
			if cond, err := op(r, x, y); err != nil {
				return nil, m.apdError(cond, err)
			}
			return m.wrap(c, decFixNaN(r))
		})
	}
	quo := func(d, x, y *apd.Decimal) (apd.Condition, error) {
		cond, err := m.ctx.Quo(d, x, y)
		if err == nil && cond&apd.Inexact == 0 && x.Form == apd.Finite && y.Form == apd.Finite {
			decIdeal(d, int64(x.Exponent)-int64(y.Exponent))
		}
		return cond, err
	}
	pow := func(d, x, y *apd.Decimal) (apd.Condition, error) {
		cond, err := m.ctx.Pow(d, x, y)
		if err == nil && cond&apd.Inexact == 0 && y.Form == apd.Finite && y.Negative && d.Form == apd.Finite {
			if yi, e := y.Int64(); e == nil && yi < 0 {
				decIdeal(d, 0)
			}
		}
		return cond, err
	}
	ops := []struct {
		name string
		op   func(d, x, y *apd.Decimal) (apd.Condition, error)
	}{
		{"add", m.ctx.Add}, {"sub", m.ctx.Sub}, {"mul", m.ctx.Mul}, {"truediv", quo},
		{"floordiv", m.ctx.QuoInteger}, {"mod", m.ctx.Rem}, {"pow", pow},
	}
	for _, o := range ops {
		binary("__"+o.name+"__", false, o.op)
		binary("__r"+o.name+"__", true, o.op)
	}
	unary := func(name string, op func(d, x *apd.Decimal) (apd.Condition, error)) {
		addMethod(k, name, func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
			x, err := self(args, name)
			if err != nil {
				return nil, err
			}
			if !strings.HasPrefix(name, "__") {
				if err := decContextArg(name, args[1:], kw); err != nil {
					return nil, err
				}
			}
			if err := decCharge(c, x); err != nil {
				return nil, err
			}
			if strings.HasPrefix(name, "copy_") {
				r := new(apd.Decimal)
				op(r, x)
				return m.wrapExact(c, r)
			}
			if v, done, err := m.nanOperands(c, x); done {
				return v, err
			}
			r := new(apd.Decimal)
			if cond, err := op(r, x); err != nil {
				return nil, m.apdError(cond, err)
			}
			return m.wrap(c, r)
		})
	}
	unary("__neg__", m.ctx.Neg)
	unary("__pos__", func(d, x *apd.Decimal) (apd.Condition, error) { return m.ctx.Round(d, x) })
	unary("__abs__", m.ctx.Abs)
	unary("sqrt", func(d, x *apd.Decimal) (apd.Condition, error) {
		cond, err := m.ctx.Sqrt(d, x)
		if err == nil && cond&apd.Inexact == 0 && x.Form == apd.Finite {
			e := int64(x.Exponent)
			if e < 0 {
				e = (e - 1) / 2
			} else {
				e /= 2
			}
			decIdeal(d, e)
		}
		return cond, err
	})
	integral := func(op func(d, x *apd.Decimal) (apd.Condition, error)) func(d, x *apd.Decimal) (apd.Condition, error) {
		return func(d, x *apd.Decimal) (apd.Condition, error) {
			if x.Form != apd.Finite || x.Exponent >= 0 {
				d.Set(x)
				return 0, nil
			}
			return op(d, x)
		}
	}
	// Correctly rounded, as libmpdec's (decimal_explog.go; vectors in
	// pvm/testdata/decimal_exp_ln.py).
	unary("exp", m.decExp)
	unary("ln", m.decLn)
	unary("log10", m.decLog10)
	unary("logb", func(d, x *apd.Decimal) (apd.Condition, error) {
		switch {
		case isNaN(x):
			d.Set(x)
			return 0, nil
		case x.Form == apd.Infinite:
			d.Set(decInf)
			return 0, nil
		case x.IsZero():
			return apd.DivisionByZero, errors.New("logb of zero")
		}
		d.SetInt64(int64(x.Exponent) + x.NumDigits() - 1)
		return 0, nil
	})
	unary("to_integral_value", integral(m.ctx.RoundToIntegralValue))
	unary("to_integral", integral(m.ctx.RoundToIntegralValue))
	unary("to_integral_exact", integral(m.ctx.RoundToIntegralExact))
	unary("copy_abs", func(d, x *apd.Decimal) (apd.Condition, error) { d.Abs(x); return 0, nil })
	unary("copy_negate", func(d, x *apd.Decimal) (apd.Condition, error) { d.Neg(x); return 0, nil })
	unary("normalize", func(d, x *apd.Decimal) (apd.Condition, error) {
		_, cond, err := m.ctx.Reduce(d, x)
		return cond, err
	})
	addMethod(k, "quantize", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		x, err := self(args, "quantize")
		if err != nil {
			return nil, err
		}
		a, err := object.UnpackArgs("quantize", args[1:], kw, "exp", "rounding?", "context?")
		if err != nil {
			return nil, err
		}
		e, err := m.convert(c, a[0], false)
		if err != nil {
			return nil, err
		}
		if e == nil {
			return nil, object.Errorf(object.TypeError, "conversion from %s to Decimal is not supported", object.TypeName(a[0]))
		}
		ctx := m.ctx
		if a[1] != nil && a[1] != object.None {
			s, ok := a[1].(object.Str)
			r, known := decRoundings[string(s)]
			if !ok || !known {
				return nil, object.Errorf(object.TypeError, "valid values for rounding are:\n  [ROUND_CEILING, ROUND_FLOOR, ROUND_UP, ROUND_DOWN,\n   ROUND_HALF_UP, ROUND_HALF_DOWN, ROUND_HALF_EVEN,\n   ROUND_05UP]")
			}
			cc := *m.ctx
			cc.Rounding = r
			ctx = &cc
		}
		if err := decCharge(c, x, e); err != nil {
			return nil, err
		}
		r := new(apd.Decimal)
		if e.Form != apd.Finite || x.Form != apd.Finite {
			// A quiet NaN operand propagates; a signaling NaN, or an
			// infinity against a finite number, is invalid (as libmpdec).
			if x.Form == apd.NaNSignaling || e.Form == apd.NaNSignaling {
				return nil, m.signal("InvalidOperation", "InvalidOperation")
			}
			if isNaN(x) || isNaN(e) {
				return m.wrap(c, decFixNaN(r.Set(decNaNOf(x, e))))
			}
			if x.Form != e.Form {
				return nil, m.signal("InvalidOperation", "InvalidOperation")
			}
			r.Set(x)
			return m.wrap(c, r)
		}
		if cond, err := ctx.Quantize(r, x, e.Exponent); err != nil {
			return nil, m.apdError(cond, err)
		}
		return m.wrap(c, r)
	})
	cmp := func(name string, test func(int) bool, eq bool) {
		addMethod(k, name, func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
			x, err := self(args, name)
			if err != nil {
				return nil, err
			}
			if err := object.ArgCount(name, args[1:], 1, 1); err != nil {
				return nil, err
			}
			y, err := m.convert(c, args[1], false)
			if err != nil {
				return nil, err
			}
			if y == nil {
				if f, ok := args[1].(object.Float); ok {
					y = decFromFloat(float64(f))
				} else {
					return object.NotImplemented, nil
				}
			}
			if err := decCharge(c, x, y); err != nil {
				return nil, err
			}
			if isNaN(x) || isNaN(y) {
				if eq {
					return object.MakeBool(name == "__ne__"), nil
				}
				return nil, m.signal("InvalidOperation", "InvalidOperation")
			}
			return object.MakeBool(test(x.Cmp(y))), nil
		})
	}
	cmp("__eq__", func(r int) bool { return r == 0 }, true)
	cmp("__ne__", func(r int) bool { return r != 0 }, true)
	cmp("__lt__", func(r int) bool { return r < 0 }, false)
	cmp("__le__", func(r int) bool { return r <= 0 }, false)
	cmp("__gt__", func(r int) bool { return r > 0 }, false)
	cmp("__ge__", func(r int) bool { return r >= 0 }, false)
	for _, name := range []string{"compare", "compare_signal"} {
		// compare_signal is compare, except that a quiet NaN operand
		// signals InvalidOperation too (trapped in the PVM's fixed
		// context).
		addMethod(k, name, func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
			x, err := self(args, name)
			if err != nil {
				return nil, err
			}
			if err := object.ArgCount(name, args[1:], 1, 2); err != nil {
				return nil, err
			}
			if err := decContextArg(name, args[2:], kw); err != nil {
				return nil, err
			}
			y, err := m.convert(c, args[1], false)
			if err != nil || y == nil {
				return nil, object.Errorf(object.TypeError, "conversion from %s to Decimal is not supported", object.TypeName(args[1]))
			}
			if name == "compare_signal" && (isNaN(x) || isNaN(y)) {
				return nil, m.signal("InvalidOperation", "InvalidOperation")
			}
			r := new(apd.Decimal)
			if cond, err := m.ctx.Cmp(r, x, y); err != nil {
				return nil, m.apdError(cond, err)
			}
			return m.wrap(c, decFixNaN(r))
		})
	}
	addMethod(k, "__format__", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		x, err := self(args, "__format__")
		if err != nil {
			return nil, err
		}
		if err := object.ArgCount("__format__", args[1:], 1, 1); err != nil {
			return nil, err
		}
		spec, ok := args[1].(object.Str)
		if !ok {
			return nil, object.Errorf(object.TypeError, "format() argument must be str, not %s", object.TypeName(args[1]))
		}
		if err := decCharge(c, x); err != nil {
			return nil, err
		}
		r, err := object.FormatNumber(c, string(spec), func(ns object.NumberSpec) (bool, string, bool, error) {
			return m.format(x, ns)
		})
		if err != nil {
			return nil, err
		}
		return object.NewStr(c, r)
	})
	addMethod(k, "__str__", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		x, err := self(args, "__str__")
		if err != nil {
			return nil, err
		}
		return object.NewStr(c, decString(x))
	})
	addMethod(k, "__repr__", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		x, err := self(args, "__repr__")
		if err != nil {
			return nil, err
		}
		return object.NewStr(c, "Decimal('"+decString(x)+"')")
	})
	addMethod(k, "__bool__", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		x, err := self(args, "__bool__")
		if err != nil {
			return nil, err
		}
		return object.MakeBool(!x.IsZero() || x.Form != apd.Finite), nil
	})
	toInt := func(name string) goFunc {
		return func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
			x, err := self(args, name)
			if err != nil {
				return nil, err
			}
			return m.truncInt(c, x)
		}
	}
	addMethod(k, "__int__", toInt("__int__"))
	addMethod(k, "__trunc__", toInt("__trunc__"))
	addMethod(k, "__float__", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		x, err := self(args, "__float__")
		if err != nil {
			return nil, err
		}
		if err := decCharge(c, x); err != nil {
			return nil, err
		}
		if x.Form == apd.NaNSignaling {
			return nil, object.Errorf(object.ValueError, "cannot convert signaling NaN to float")
		}
		s := decString(x)
		f, _ := object.ParseFloat(s)
		return object.Float(f), nil
	})
	addMethod(k, "__round__", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		x, err := self(args, "__round__")
		if err != nil {
			return nil, err
		}
		if err := object.ArgCount("__round__", args[1:], 0, 1); err != nil {
			return nil, err
		}
		if len(args) == 2 && args[1] != object.None {
			n, err := intArg("__round__", args[1])
			if err != nil {
				return nil, err
			}
			r := new(apd.Decimal)
			if x.Form != apd.Finite {
				r.Set(x)
				return m.wrap(c, r)
			}
			if cond, err := m.ctx.Quantize(r, x, int32(-n)); err != nil {
				return nil, m.apdError(cond, err)
			}
			return m.wrap(c, r)
		}
		if isNaN(x) {
			return nil, object.Errorf(object.ValueError, "cannot round a NaN")
		}
		if x.Form == apd.Infinite {
			return nil, object.Errorf(object.OverflowError, "cannot round an infinity")
		}
		r := new(apd.Decimal)
		if cond, err := m.ctx.RoundToIntegralValue(r, x); err != nil {
			return nil, m.apdError(cond, err)
		}
		return m.truncInt(c, r)
	})
	addMethod(k, "__hash__", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		x, err := self(args, "__hash__")
		if err != nil {
			return nil, err
		}
		return decHash(x)
	})
	addMethod(k, "adjusted", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		x, err := self(args, "adjusted")
		if err != nil {
			return nil, err
		}
		if x.Form != apd.Finite {
			return object.Int(0), nil
		}
		return object.Int(int64(x.Exponent) + x.NumDigits() - 1), nil
	})
	preds := map[string]func(x *apd.Decimal) bool{
		"is_nan":      isNaN,
		"is_qnan":     func(x *apd.Decimal) bool { return x.Form == apd.NaN },
		"is_snan":     func(x *apd.Decimal) bool { return x.Form == apd.NaNSignaling },
		"is_infinite": func(x *apd.Decimal) bool { return x.Form == apd.Infinite },
		"is_finite":   func(x *apd.Decimal) bool { return x.Form == apd.Finite },
		"is_zero":     func(x *apd.Decimal) bool { return x.Form == apd.Finite && x.IsZero() },
		"is_signed":   func(x *apd.Decimal) bool { return x.Negative },
	}
	for name, p := range preds {
		name, p := name, p
		addMethod(k, name, func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
			x, err := self(args, name)
			if err != nil {
				return nil, err
			}
			return object.MakeBool(p(x)), nil
		})
	}
	addMethod(k, "as_tuple", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		x, err := self(args, "as_tuple")
		if err != nil {
			return nil, err
		}
		sign := object.Int(0)
		if x.Negative {
			sign = 1
		}
		var digits object.Tuple
		for _, ch := range x.Coeff.String() {
			digits = append(digits, object.Int(ch-'0'))
		}
		var exp object.Value = object.Int(x.Exponent)
		switch x.Form {
		case apd.NaN, apd.NaNSignaling:
			exp = object.Str("n")
			if x.Form == apd.NaNSignaling {
				exp = object.Str("N")
			}
			if x.Coeff.Sign() == 0 {
				digits = object.Tuple{}
			}
		case apd.Infinite:
			exp, digits = object.Str("F"), object.Tuple{object.Int(0)}
		}
		in, err := object.NewInstance(c, m.tupleCls)
		if err != nil {
			return nil, err
		}
		in.Base = object.Tuple{sign, digits, exp}
		return in, nil
	})
}

// truncInt is int(x): truncation toward zero.
func (m *decMod) truncInt(c object.Ctx, x *apd.Decimal) (object.Value, error) {
	switch {
	case isNaN(x):
		return nil, object.Errorf(object.ValueError, "cannot convert NaN to integer")
	case x.Form == apd.Infinite:
		return nil, object.Errorf(object.OverflowError, "cannot convert Infinity to integer")
	}
	if err := decCharge(c, x); err != nil {
		return nil, err
	}
	if x.Exponent > 4096 {
		return nil, object.Errorf(object.OverflowError, "int exceeds the %d-bit limit", meter.MaxIntBits)
	}
	n := x.Coeff.MathBigInt()
	if x.Exponent >= 0 {
		n.Mul(n, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(x.Exponent)), nil))
	} else {
		n.Quo(n, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(-x.Exponent)), nil))
	}
	if x.Negative {
		n.Neg(n)
	}
	if n.IsInt64() {
		return object.Int(n.Int64()), nil
	}
	return object.MakeBigInt(n)
}

// decHash is CPython's Decimal.__hash__: equal to the hash of an equal int
// or float.
func decHash(x *apd.Decimal) (object.Value, error) {
	switch x.Form {
	case apd.NaNSignaling:
		return nil, object.Errorf(object.TypeError, "Cannot hash a signaling NaN value.")
	case apd.NaN:
		return object.Int(0), nil
	case apd.Infinite:
		if x.Negative {
			return object.Int(-314159), nil
		}
		return object.Int(314159), nil
	}
	mod := new(big.Int).SetUint64(1<<61 - 1)
	var expHash *big.Int
	if x.Exponent >= 0 {
		expHash = new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(x.Exponent)), mod)
	} else {
		inv := new(big.Int).Exp(big.NewInt(10), new(big.Int).Sub(mod, big.NewInt(2)), mod)
		expHash = new(big.Int).Exp(inv, big.NewInt(int64(-x.Exponent)), mod)
	}
	h := x.Coeff.MathBigInt()
	h.Mul(h, expHash)
	h.Mod(h, mod)
	v := h.Int64()
	if x.Negative {
		v = -v
	}
	if v == -1 {
		v = -2
	}
	return object.Int(v), nil
}

// decIdeal removes trailing zeros of an exact result's coefficient while its
// exponent is below ideal, as CPython does for exact quotients, square roots
// and negative integer powers.
func decIdeal(d *apd.Decimal, ideal int64) {
	ten := apd.NewBigInt(10)
	var q, r apd.BigInt
	for int64(d.Exponent) < ideal && d.Coeff.Sign() != 0 {
		q.QuoRem(&d.Coeff, ten, &r)
		if r.Sign() != 0 {
			return
		}
		d.Coeff.Set(&q)
		d.Exponent++
	}
	if d.Coeff.Sign() == 0 && int64(d.Exponent) < ideal {
		d.Exponent = int32(ideal)
	}
}

// format lays out x's digits for a format spec as CPython's
// Decimal.__format__ does (_pydecimal.py): round (half-even, the fixed
// context's rounding) to the precision the type asks for, place the decimal
// point, and add the exponent or % suffix. It returns the sign separately.
func (m *decMod) format(x *apd.Decimal, ns object.NumberSpec) (bool, string, bool, error) {
	typ := ns.Type
	if ns.Alt || ns.Grouping == '_' {
		// CPython's decimal (libmpdec) accepts neither.
		return false, "", false, object.Errorf(object.ValueError, "invalid format string")
	}
	switch typ {
	case 0:
		typ = 'G' // the context's capitals is 1
	case 'e', 'E', 'f', 'F', 'g', 'G', '%':
	default:
		return false, "", false, object.Errorf(object.ValueError, "Invalid format specifier")
	}
	if x.Form != apd.Finite {
		abs := *x
		abs.Negative = false
		body := decString(&abs)
		if typ == '%' {
			body += "%"
		}
		return x.Negative, body, true, nil
	}
	d := new(apd.Decimal).Set(x)
	if typ == '%' {
		d.Exponent += 2
	}
	wide := *m.ctx
	wide.Precision = 100000
	// round is _pydecimal's _round: x to exactly places significant digits.
	round := func(places int) error {
		if d.IsZero() {
			return nil
		}
		adj := int(d.Exponent) + int(d.NumDigits()) - 1
		if _, err := wide.Quantize(d, d, int32(adj+1-places)); err != nil {
			return err
		}
		if int(d.NumDigits()) > places {
			_, err := wide.Quantize(d, d, int32(adj+2-places))
			return err
		}
		return nil
	}
	prec := ns.Precision
	if prec == 0 && (typ == 'g' || typ == 'G') {
		prec = 1
	}
	if prec >= 0 {
		var err error
		switch typ {
		case 'e', 'E':
			err = round(prec + 1)
		case 'f', 'F', '%':
			_, err = wide.Quantize(d, d, int32(-prec))
		case 'g', 'G':
			if int(d.NumDigits()) > prec {
				err = round(prec)
			}
		}
		if err != nil {
			return false, "", false, object.Errorf(object.ValueError, "%s", err.Error())
		}
	}
	if d.IsZero() && d.Exponent > 0 && (typ == 'f' || typ == 'F' || typ == '%') {
		d.Exponent = 0
	}
	neg := d.Negative
	if d.IsZero() && ns.NoNeg0 {
		neg = false
	}
	digits := d.Coeff.String()
	left := int(d.Exponent) + len(digits)
	var dot int
	switch typ {
	case 'e', 'E':
		dot = 1
		if d.IsZero() && prec >= 0 {
			dot = 1 - prec
		}
	case 'f', 'F', '%':
		dot = left
	default:
		dot = 1
		if d.Exponent <= 0 && left > -6 {
			dot = left
		}
	}
	var intPart, frac string
	switch {
	case dot < 0:
		intPart, frac = "0", strings.Repeat("0", -dot)+digits
	case dot > len(digits):
		intPart = digits + strings.Repeat("0", dot-len(digits))
	default:
		intPart, frac = digits[:dot], digits[dot:]
		if intPart == "" {
			intPart = "0"
		}
	}
	exp := left - dot
	body := intPart
	if frac != "" || ns.Alt {
		body += "." + frac
	}
	if exp != 0 || typ == 'e' || typ == 'E' {
		e := "e"
		if typ == 'E' || typ == 'G' {
			e = "E"
		}
		sign := "+"
		if exp < 0 {
			sign, exp = "-", -exp
		}
		body += e + sign + strconv.Itoa(exp)
	}
	if typ == '%' {
		body += "%"
	}
	return neg, body, false, nil
}
