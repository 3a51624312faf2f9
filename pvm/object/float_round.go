package object

import (
	"math/big"
	"math/bits"

	"github.com/cowboy-chain/cowboy/pvm/softfloat"
)

// int64ToFloat converts i to the nearest float (ties to even), in software.
func int64ToFloat(i int64) float64 { return fl(softfloat.FromInt64(i)) }

// FloatToInt is int(f): truncation toward zero, ValueError for NaN and
// OverflowError for infinities, with CPython's messages.
func FloatToInt(f float64) (Value, error) {
	x := sf(f)
	if i, ok := softfloat.ToInt64(x); ok {
		return MakeInt(i), nil
	}
	b, err := softfloat.ToBig(x)
	switch err {
	case nil:
		return MakeBigInt(b)
	case softfloat.ErrNaN:
		return nil, Errorf(ValueError, "cannot convert float NaN to integer")
	}
	return nil, Errorf(OverflowError, "cannot convert float infinity to integer")
}

// RoundFloat is round(f) (nd nil or None: to the nearest int, ties to even)
// and round(f, nd) (a float rounded to nd decimal places, ties to even on
// the exact binary value), as CPython's float.__round__ does with dtoa: the
// exact value is rounded in integer arithmetic and the decimal result
// converted back correctly rounded.
func RoundFloat(c Ctx, f Float, nd Value) (Value, error) {
	x := sf(float64(f))
	if nd == nil || nd == None {
		return FloatToInt(fl(softfloat.RoundEven(x)))
	}
	n, ok := AsInt64(nd)
	if !ok {
		if _, isBig := nd.(*BigInt); !isBig {
			return nil, Errorf(TypeError, "'%s' object cannot be interpreted as an integer", TypeName(nd))
		}
		// A huge ndigits clips, as PyNumber_AsSsize_t does.
		n = 1 << 62
		if nd.(*BigInt).Big().Sign() < 0 {
			n = -n
		}
	}
	const ndigitsMax, ndigitsMin = 323, -308
	switch {
	case !x.IsFinite():
		return f, nil
	case n > ndigitsMax:
		return f, nil
	case n < ndigitsMin:
		return Float(fl(softfloat.Copysign(softfloat.Zero, x))), nil
	case x.IsZero():
		return f, nil
	}
	if err := Charge(c, uint64(abs64(n))/8+1); err != nil {
		return nil, err
	}
	// |x| = m * 2**e.
	b := uint64(x)
	exp := int(b>>52) & 0x7FF
	m := b & (1<<52 - 1)
	if exp == 0 {
		exp = 1
	} else {
		m |= 1 << 52
	}
	tz := bits.TrailingZeros64(m)
	m >>= uint(tz)
	e := exp - 1075 + tz
	num := new(big.Int).SetUint64(m)
	den := big.NewInt(1)
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(abs64(n)), nil)
	if n >= 0 {
		if e >= 0 {
			return f, nil // an integer already
		}
		num.Mul(num, p)
		den.Lsh(den, uint(-e))
	} else {
		if e >= 0 {
			num.Lsh(num, uint(e))
		} else {
			den.Lsh(den, uint(-e))
		}
		den.Mul(den, p)
	}
	q, r := new(big.Int).QuoRem(num, den, new(big.Int))
	if c := r.Lsh(r, 1).Cmp(den); c > 0 || (c == 0 && q.Bit(0) == 1) {
		q.Add(q, big.NewInt(1))
	}
	var res softfloat.F64
	if n >= 0 {
		res = softfloat.FromRat(q, p)
	} else {
		res = softfloat.FromBig(q.Mul(q, p))
	}
	if res.IsInf() {
		return nil, Errorf(OverflowError, "rounded value too large to represent")
	}
	return Float(fl(softfloat.Copysign(res, x))), nil
}

func abs64(i int64) int64 {
	if i < 0 {
		return -i
	}
	return i
}
