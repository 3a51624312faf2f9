package modules

import (
	"github.com/cockroachdb/apd/v3"
)

// Correctly rounded exp, ln and log10 for the decimal module.
//
// CPython's libmpdec rounds exp, ln and log10 correctly under the default
// context. apd's Exp and Ln are accurate to about one unit in the last
// place at the working precision, but they are not correctly rounded (about
// one result in 400 differs from CPython in the last digit), and they pick
// iteration counts and a Newton starting value with host float64
// arithmetic. decRound removes both problems with Ziv's strategy: evaluate
// at 28+g digits, and accept the result only when its g guard digits are
// more than decGuardSlack units away from a rounding midpoint, so that the
// 28-digit result is the rounding of the exact value whatever the last
// guard digits are; otherwise retry with more guard digits. The answer is
// then a function of the exact mathematical value alone, so neither apd's
// internal approximations nor the host's float64 can make two nodes
// differ. Results that the functions give exactly (exp(0), ln(1), log10 of
// a power of ten) are decided before any evaluation.

// decGuards are the guard-digit counts tried in turn.
var decGuards = []uint32{9, 18, 36, 72}

// decGuardSlack bounds apd's error at the working precision, in units of its
// last digit; apd documents about one unit, we allow a margin.
const decGuardSlack = 50

// decPrec is the module's fixed precision (the default context's).
const decPrec = 28

// decRound evaluates f (apd's Exp, Ln or Log10 under a context of the given
// precision) and rounds the result correctly to the module context.
func (m *decMod) decRound(d, x *apd.Decimal, f func(c *apd.Context, d, x *apd.Decimal) (apd.Condition, error)) (apd.Condition, error) {
	var r apd.Decimal
	exact := false
	for i, g := range decGuards {
		hc := m.ctx.WithPrecision(decPrec + g)
		cond, err := f(hc, &r, x)
		if err != nil {
			return cond, err
		}
		if r.Form != apd.Finite || cond&apd.Inexact == 0 {
			exact = true
			break
		}
		if i < len(decGuards)-1 && decNearMidpoint(&r, g) {
			continue
		}
		break
	}
	cond, err := m.ctx.Round(d, &r)
	if err != nil || exact {
		return cond, err
	}
	// An inexact result carries the full precision, as libmpdec's does
	// (exp(1E-30) is 1.000000000000000000000000000, not 1).
	if d.Form == apd.Finite {
		if n := d.NumDigits(); n < decPrec {
			var scale apd.BigInt
			scale.Exp(apd.NewBigInt(10), apd.NewBigInt(decPrec-n), nil)
			d.Coeff.Mul(&d.Coeff, &scale)
			d.Exponent -= int32(decPrec - n)
		}
	}
	return cond | apd.Inexact | apd.Rounded, nil
}

// decNearMidpoint reports whether the digits of r beyond the first decPrec
// (g of them when r has its full decPrec+g digits) are within decGuardSlack
// of half a unit of the decPrec-th digit, where an error in r could change
// the rounding.
func decNearMidpoint(r *apd.Decimal, g uint32) bool {
	n := r.NumDigits()
	if n <= decPrec {
		// Trailing zeros at the working precision: far from a midpoint.
		return false
	}
	var mod, half, t apd.BigInt
	mod.Exp(apd.NewBigInt(10), apd.NewBigInt(n-decPrec), nil)
	t.Rem(&r.Coeff, &mod)
	half.Quo(&mod, apd.NewBigInt(2))
	t.Sub(&t, &half)
	t.Abs(&t)
	return t.Cmp(apd.NewBigInt(decGuardSlack)) <= 0
}

// decPow10 returns k and true when x is exactly 10**k (x finite, positive).
func decPow10(x *apd.Decimal) (int64, bool) {
	if x.Form != apd.Finite || x.Negative || x.IsZero() {
		return 0, false
	}
	var c apd.Decimal
	c.Coeff.Set(&x.Coeff)
	c.Reduce(&c)
	if c.Coeff.Cmp(apd.NewBigInt(1)) != 0 {
		return 0, false
	}
	return int64(x.Exponent) + x.NumDigits() - 1, true
}

// decExp is Decimal.exp. Arguments beyond apd's direct range (|x| > 23
// times the precision) are reduced as exp(x) = 10**n * exp(x - n*ln 10),
// with ln 10 and the subtraction carried at enough extra digits to cover
// the digits of n.
func (m *decMod) decExp(d, x *apd.Decimal) (apd.Condition, error) {
	if x.Form == apd.Finite && x.IsZero() {
		d.SetFinite(1, 0)
		return 0, nil
	}
	return m.decRound(d, x, func(c *apd.Context, d, x *apd.Decimal) (apd.Condition, error) {
		if x.Form != apd.Finite || decAdjusted(x) < 2 {
			return c.Exp(d, x)
		}
		// n = round(x / ln 10) needs ln 10 to the digits of x's integer part
		// plus the working precision.
		extra := uint32(decAdjusted(x)) + 4
		wc := c.WithPrecision(c.Precision + extra)
		wc.Traps = 0
		var ln10, n, nl, y apd.Decimal
		if _, err := wc.Ln(&ln10, apd.New(10, 0)); err != nil {
			return 0, err
		}
		if _, err := wc.Quo(&n, x, &ln10); err != nil {
			return 0, err
		}
		if _, err := wc.RoundToIntegralValue(&n, &n); err != nil {
			return 0, err
		}
		k, err := n.Int64()
		if err != nil || k > 1<<30 || k < -(1<<30) {
			// Certainly beyond any exponent: let apd report the overflow or
			// the underflow to zero.
			return c.Exp(d, x)
		}
		wc.Mul(&nl, &n, &ln10)
		wc.Sub(&y, x, &nl)
		cond, err := c.Exp(d, &y)
		if err != nil {
			return cond, err
		}
		d.Exponent += int32(k)
		// The scaled result must still fit the exponent range: past the
		// top it overflows (trapped), past the bottom it underflows to 0.
		if a := decAdjusted(d); a > int64(c.MaxExponent) || a > apd.MaxExponent {
			return apd.Overflow, errDecOverflow
		}
		if a := decAdjusted(d); a < int64(c.MinExponent)-decPrec || a < apd.MinExponent {
			d.SetFinite(0, c.MinExponent-decPrec+1)
			return apd.Underflow | apd.Inexact | apd.Rounded | apd.Subnormal | apd.Clamped, nil
		}
		return cond, nil
	})
}

// decLn is Decimal.ln: ln(1) is exactly 0.
func (m *decMod) decLn(d, x *apd.Decimal) (apd.Condition, error) {
	if k, ok := decPow10(x); ok && k == 0 {
		d.SetFinite(0, 0)
		return 0, nil
	}
	return m.decRound(d, x, (*apd.Context).Ln)
}

// decLog10 is Decimal.log10: exact, with exponent 0, for a power of ten.
func (m *decMod) decLog10(d, x *apd.Decimal) (apd.Condition, error) {
	if k, ok := decPow10(x); ok {
		d.SetFinite(k, 0)
		return 0, nil
	}
	return m.decRound(d, x, (*apd.Context).Log10)
}

// decAdjusted is the adjusted exponent of a finite x: the exponent of its
// leading digit.
func decAdjusted(x *apd.Decimal) int64 { return int64(x.Exponent) + x.NumDigits() - 1 }
