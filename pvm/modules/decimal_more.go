package modules

import (
	"math/big"
	"strconv"
	"strings"

	"github.com/cockroachdb/apd/v3"

	"github.com/cowboy-chain/cowboy/pvm/object"
)

// The smaller Decimal methods of CPython 3.11 (issue 18): comparisons and
// selections by total order, classification, sign copying, the exact
// integer ratio, fused multiply-add, scaleb, engineering notation and the
// trivial ones (conjugate, canonical, radix, real, imag, from_float).

// self returns the Decimal payload of args[0] for method name.
func (m *decMod) self(args []object.Value, name string) (*apd.Decimal, error) {
	if len(args) > 0 {
		if d := m.dec(args[0]); d != nil {
			return d, nil
		}
	}
	return nil, object.Errorf(object.TypeError, "descriptor '%s' for 'decimal.Decimal' objects doesn't apply to this object", name)
}

// other converts the second operand of method name (a Decimal or an int).
func (m *decMod) other(c object.Ctx, name string, args []object.Value, n int) ([]*apd.Decimal, error) {
	if err := object.ArgCount(name, args[1:], n, n+1); err != nil {
		return nil, err
	}
	if err := decContextArg(name, args[1+n:], nil); err != nil {
		return nil, err
	}
	out := make([]*apd.Decimal, n)
	for i := 0; i < n; i++ {
		y, err := m.convert(c, args[1+i], false)
		if err != nil {
			return nil, err
		}
		if y == nil {
			return nil, object.Errorf(object.TypeError, "conversion from %s to Decimal is not supported", object.TypeName(args[1+i]))
		}
		out[i] = y
	}
	return out, nil
}

func (m *decMod) addMoreMethods() {
	k := m.cls
	method := func(name string, n int, fn func(c object.Ctx, x *apd.Decimal, ys []*apd.Decimal) (object.Value, error)) {
		addMethod(k, name, func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
			x, err := m.self(args, name)
			if err != nil {
				return nil, err
			}
			ys, err := m.other(c, name, args, n)
			if err != nil {
				return nil, err
			}
			if err := decCharge(c, append([]*apd.Decimal{x}, ys...)...); err != nil {
				return nil, err
			}
			return fn(c, x, ys)
		})
	}
	round := func(c object.Ctx, d *apd.Decimal) (object.Value, error) {
		if isNaN(d) {
			return m.wrap(c, new(apd.Decimal).Set(d)) // no rounding of the payload
		}
		r := new(apd.Decimal)
		if cond, err := m.ctx.Round(r, d); err != nil {
			return nil, m.apdError(cond, err)
		}
		return m.wrap(c, r)
	}
	same := func(c object.Ctx, x *apd.Decimal, _ []*apd.Decimal) (object.Value, error) {
		return m.wrapExact(c, new(apd.Decimal).Set(x))
	}
	method("conjugate", 0, same)
	method("canonical", 0, same)
	method("is_canonical", 0, func(object.Ctx, *apd.Decimal, []*apd.Decimal) (object.Value, error) { return object.True, nil })
	method("radix", 0, func(c object.Ctx, _ *apd.Decimal, _ []*apd.Decimal) (object.Value, error) {
		return m.wrap(c, apd.New(10, 0))
	})
	get := func(name string, fn func(c object.Ctx, x *apd.Decimal) (object.Value, error)) {
		g := object.NewBuiltin(name, func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
			x, err := m.self(args, name)
			if err != nil {
				return nil, err
			}
			return fn(c, x)
		})
		k.Dict.Set(name, &object.Property{Get: g, Set: object.None, Del: object.None})
	}
	get("real", func(c object.Ctx, x *apd.Decimal) (object.Value, error) { return m.wrap(c, new(apd.Decimal).Set(x)) })
	get("imag", func(c object.Ctx, x *apd.Decimal) (object.Value, error) { return m.wrap(c, apd.New(0, 0)) })

	method("copy_sign", 1, func(c object.Ctx, x *apd.Decimal, ys []*apd.Decimal) (object.Value, error) {
		r := new(apd.Decimal).Set(x)
		r.Negative = ys[0].Negative
		return m.wrapExact(c, r)
	})
	method("same_quantum", 1, func(c object.Ctx, x *apd.Decimal, ys []*apd.Decimal) (object.Value, error) {
		y := ys[0]
		if x.Form != apd.Finite || y.Form != apd.Finite {
			return object.MakeBool(isNaN(x) && isNaN(y) || x.Form == apd.Infinite && y.Form == apd.Infinite), nil
		}
		return object.MakeBool(x.Exponent == y.Exponent), nil
	})
	method("compare_total", 1, func(c object.Ctx, x *apd.Decimal, ys []*apd.Decimal) (object.Value, error) {
		return m.wrap(c, apd.New(int64(x.CmpTotal(ys[0])), 0))
	})
	method("compare_total_mag", 1, func(c object.Ctx, x *apd.Decimal, ys []*apd.Decimal) (object.Value, error) {
		a, b := new(apd.Decimal).Abs(x), new(apd.Decimal).Abs(ys[0])
		return m.wrap(c, apd.New(int64(a.CmpTotal(b)), 0))
	})
	// max, min, max_mag, min_mag: CPython's _decimal (General Decimal
	// Arithmetic): a quiet NaN loses to a number, a signaling NaN is
	// InvalidOperation, equal values are ordered by the total order, and
	// the result is rounded to the context.
	pick := func(name string, mag, wantMax bool) {
		method(name, 1, func(c object.Ctx, x *apd.Decimal, ys []*apd.Decimal) (object.Value, error) {
			y := ys[0]
			if x.Form == apd.NaNSignaling || y.Form == apd.NaNSignaling {
				return nil, m.signal("InvalidOperation", "InvalidOperation")
			}
			switch {
			case isNaN(x) && isNaN(y):
				return round(c, x)
			case isNaN(x):
				return round(c, y)
			case isNaN(y):
				return round(c, x)
			}
			a, b := x, y
			if mag {
				a, b = new(apd.Decimal).Abs(x), new(apd.Decimal).Abs(y)
			}
			cmp := a.Cmp(b)
			if cmp == 0 {
				cmp = x.CmpTotal(y)
			}
			if (cmp < 0) == wantMax {
				return round(c, y)
			}
			return round(c, x)
		})
	}
	pick("max", false, true)
	pick("min", false, false)
	pick("max_mag", true, true)
	pick("min_mag", true, false)
	method("is_normal", 0, func(c object.Ctx, x *apd.Decimal, _ []*apd.Decimal) (object.Value, error) {
		return object.MakeBool(x.Form == apd.Finite && !x.IsZero() && decAdjusted(x) >= int64(m.ctx.MinExponent)), nil
	})
	method("is_subnormal", 0, func(c object.Ctx, x *apd.Decimal, _ []*apd.Decimal) (object.Value, error) {
		return object.MakeBool(x.Form == apd.Finite && !x.IsZero() && decAdjusted(x) < int64(m.ctx.MinExponent)), nil
	})
	method("number_class", 0, func(c object.Ctx, x *apd.Decimal, _ []*apd.Decimal) (object.Value, error) {
		sign := "+"
		if x.Negative {
			sign = "-"
		}
		switch {
		case x.Form == apd.NaNSignaling:
			return object.Str("sNaN"), nil
		case x.Form == apd.NaN:
			return object.Str("NaN"), nil
		case x.Form == apd.Infinite:
			return object.Str(sign + "Infinity"), nil
		case x.IsZero():
			return object.Str(sign + "Zero"), nil
		case decAdjusted(x) < int64(m.ctx.MinExponent):
			return object.Str(sign + "Subnormal"), nil
		}
		return object.Str(sign + "Normal"), nil
	})
	method("as_integer_ratio", 0, func(c object.Ctx, x *apd.Decimal, _ []*apd.Decimal) (object.Value, error) {
		switch {
		case isNaN(x):
			return nil, object.Errorf(object.ValueError, "cannot convert NaN to integer ratio")
		case x.Form == apd.Infinite:
			return nil, object.Errorf(object.OverflowError, "cannot convert Infinity to integer ratio")
		}
		if x.Exponent > 4096 || x.Exponent < -4096 {
			return nil, object.Errorf(object.OverflowError, "int exceeds the 4096-bit limit")
		}
		n := x.Coeff.MathBigInt()
		d := big.NewInt(1)
		p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(absInt32(x.Exponent))), nil)
		if x.Exponent >= 0 {
			n.Mul(n, p)
		} else {
			d = p
		}
		g := new(big.Int).GCD(nil, nil, n, d)
		if g.Sign() != 0 {
			n.Quo(n, g)
			d.Quo(d, g)
		}
		if x.Negative {
			n.Neg(n)
		}
		nv, err := bigToValue(n)
		if err != nil {
			return nil, err
		}
		dv, err := bigToValue(d)
		if err != nil {
			return nil, err
		}
		return object.Tuple{nv, dv}, nil
	})
	method("fma", 2, func(c object.Ctx, x *apd.Decimal, ys []*apd.Decimal) (object.Value, error) {
		// x*y exactly (enough digits for the whole product), then one
		// rounding in the addition. As libmpdec's mpd_qfma, NaN factors
		// decide in the multiplication, and the addition then still
		// signals for a signaling NaN addend; inf*0 is invalid even
		// with a NaN addend.
		if (isNaN(x) || isNaN(ys[0])) && x.Form != apd.NaNSignaling && ys[0].Form != apd.NaNSignaling && ys[1].Form == apd.NaNSignaling {
			return nil, m.signal("InvalidOperation", "InvalidOperation")
		}
		if v, done, err := m.nanOperands(c, x, ys[0]); done {
			return v, err
		}
		exact := m.ctx.WithPrecision(uint32(x.NumDigits()+ys[0].NumDigits()) + 2)
		var p apd.Decimal
		if cond, err := exact.Mul(&p, x, ys[0]); err != nil {
			return nil, m.apdError(cond, err)
		}
		r := new(apd.Decimal)
		if cond, err := m.ctx.Add(r, &p, ys[1]); err != nil {
			return nil, m.apdError(cond, err)
		}
		return m.wrap(c, r)
	})
	method("scaleb", 1, func(c object.Ctx, x *apd.Decimal, ys []*apd.Decimal) (object.Value, error) {
		y := ys[0]
		if v, done, err := m.nanOperands(c, x, y); done {
			return v, err
		}
		n, err := y.Int64()
		if y.Form != apd.Finite || err != nil || y.Exponent != 0 || n > 2*(999999+28) || n < -2*(999999+28) {
			if isNaN(x) || isNaN(y) {
				return m.wrap(c, new(apd.Decimal).Set(decNaNOf(x, y)))
			}
			return nil, m.signal("InvalidOperation", "InvalidOperation")
		}
		r := new(apd.Decimal).Set(x)
		if r.Form == apd.Finite {
			r.Exponent += int32(n)
		}
		return round(c, r)
	})
	method("to_eng_string", 0, func(c object.Ctx, x *apd.Decimal, _ []*apd.Decimal) (object.Value, error) {
		return object.Str(decEngString(x)), nil
	})
	k.Dict.Set("from_float", &object.ClassMethod{Fn: object.NewBuiltin("from_float", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		if err := object.ArgCount("from_float", args[1:], 1, 1); err != nil {
			return nil, err
		}
		switch v := object.BaseOf(args[1]).(type) {
		case object.Float:
			return m.wrap(c, decFromFloat(float64(v)))
		case object.Int, object.Bool, *object.BigInt:
			d, err := m.convert(c, v, true)
			if err != nil {
				return nil, err
			}
			return m.wrap(c, d)
		}
		return nil, object.Errorf(object.TypeError, "argument must be int or float")
	})})
}

func absInt32(e int32) int32 {
	if e < 0 {
		return -e
	}
	return e
}

// decNaNOf is the NaN operand that propagates (the first NaN).
func decNaNOf(x, y *apd.Decimal) *apd.Decimal {
	if isNaN(x) {
		return x
	}
	return y
}

// bigToValue makes a Python int of n (an Int when it fits).
func bigToValue(n *big.Int) (object.Value, error) {
	if n.IsInt64() {
		return object.Int(n.Int64()), nil
	}
	return object.MakeBigInt(n)
}

// decEngString is CPython's Decimal.__str__(eng=True): like str(), but an
// exponent, when shown, is a multiple of three.
func decEngString(d *apd.Decimal) string {
	if d.Form != apd.Finite {
		return decString(d)
	}
	digits := d.Coeff.String()
	exp := int(d.Exponent)
	left := exp + len(digits)
	var dot int
	switch {
	case exp <= 0 && left > -6:
		dot = left
	case digits == "0":
		dot = ((left+1)%3+3)%3 - 1
	default:
		dot = ((left-1)%3+3)%3 + 1
	}
	var intpart, frac string
	switch {
	case dot <= 0:
		intpart, frac = "0", "."+strings.Repeat("0", -dot)+digits
	case dot >= len(digits):
		intpart, frac = digits+strings.Repeat("0", dot-len(digits)), ""
	default:
		intpart, frac = digits[:dot], "."+digits[dot:]
	}
	s := intpart + frac
	if left != dot {
		e := left - dot
		sign := "+"
		if e < 0 {
			sign = "-"
			e = -e
		}
		s += "E" + sign + strconv.Itoa(e)
	}
	if d.Negative {
		s = "-" + s
	}
	return s
}
