package object

import (
	"math"
	"math/big"
	"math/bits"
	"strconv"
	"unsafe"

	"github.com/cowboy-chain/cowboy/pvm/meter"
	"github.com/cowboy-chain/cowboy/pvm/softfloat"
)

// Int is a Python int that fits in 64 bits: the fast path, never boxed in a
// big.Int. Results that leave int64 become *BigInt.
type Int int64

// Boxed small ints: storing an Int above 255 in a Value makes Go allocate,
// so the hot paths box through MakeInt, which makes the Value of a small
// int from a cell of smallIntCells instead. The cells are written once, at
// init, and only read afterwards, so concurrent calls can share them.
//
// The cells are a global array without pointers: the collector neither
// scans it nor marks what a Value points to there (it is outside the Go
// heap), where a table of preboxed Values was a 1 MiB slice of pointers to
// 66,560 heap objects that every collection scanned and marked again.
const (
	smallIntMin = -1024
	smallIntMax = 1 << 16
)

var smallIntCells [smallIntMax - smallIntMin]Int

// intItab is the interface table of Int as a Value, taken from the
// compiler's own conversion; making it also fills smallIntCells, so every
// use of MakeInt (which reads intItab) comes after the cells are written,
// also in other packages' initializers.
var intItab = func() unsafe.Pointer {
	for i := range smallIntCells {
		smallIntCells[i] = Int(int64(i) + smallIntMin)
	}
	var v Value = Int(smallIntMax)
	return (*ifaceWords)(unsafe.Pointer(&v)).tab
}()

// MakeInt boxes i as a Value without allocating for common small values.
func MakeInt(i int64) Value {
	if i >= smallIntMin && i < smallIntMax {
		var v Value
		w := (*ifaceWords)(unsafe.Pointer(&v))
		w.tab, w.data = intItab, unsafe.Pointer(&smallIntCells[i-smallIntMin])
		return v
	}
	return Int(i)
}

// BigInt is a Python int outside int64, at most meter.MaxIntBits bits.
// Invariant: never holds a value that fits in int64 (normalize).
type BigInt struct{ v *big.Int }

// Type implements Value.
func (Int) Type() *Class { return IntClass }

// Repr implements Value.
func (i Int) Repr(Ctx) (string, error) { return strconv.FormatInt(int64(i), 10), nil }

// Truth implements Value.
func (i Int) Truth(Ctx) (bool, error) { return i != 0, nil }

// Hash implements Value: Python's hash of an int is its value modulo 2**61-1.
func (i Int) Hash(Ctx) (int64, error) { return hashInt64(int64(i)), nil }

const hashModulus = (1 << 61) - 1

func hashInt64(v int64) int64 {
	neg := v < 0
	u := uint64(v)
	if neg {
		u = uint64(-v)
	}
	h := int64(u % hashModulus)
	if neg {
		h = -h
	}
	if h == -1 {
		h = -2
	}
	return h
}

// Type implements Value.
func (*BigInt) Type() *Class { return IntClass }

// Repr implements Value.
func (b *BigInt) Repr(Ctx) (string, error) { return b.v.String(), nil }

// Truth implements Value.
func (b *BigInt) Truth(Ctx) (bool, error) { return b.v.Sign() != 0, nil }

// Hash implements Value.
func (b *BigInt) Hash(Ctx) (int64, error) {
	m := new(big.Int).Abs(b.v)
	m.Mod(m, big.NewInt(hashModulus))
	h := m.Int64()
	if b.v.Sign() < 0 {
		h = -h
	}
	if h == -1 {
		h = -2
	}
	return h, nil
}

// Big returns the value as a new big.Int.
func (b *BigInt) Big() *big.Int { return new(big.Int).Set(b.v) }

// MakeBigInt normalises a big.Int into Int or *BigInt, raising OverflowError
// above the 4096-bit cap (issue 4). It takes ownership of v.
func MakeBigInt(v *big.Int) (Value, error) {
	if v.IsInt64() {
		return MakeInt(v.Int64()), nil
	}
	if v.BitLen() > meter.MaxIntBits {
		return nil, Errorf(OverflowError, "int exceeds the %d-bit limit", meter.MaxIntBits)
	}
	return &BigInt{v: v}, nil
}

// toBig converts an int-like value (Int, *BigInt, Bool).
func toBig(v Value) *big.Int {
	switch v := v.(type) {
	case Int:
		return big.NewInt(int64(v))
	case *BigInt:
		return v.v
	case Bool:
		if v {
			return big.NewInt(1)
		}
		return big.NewInt(0)
	}
	return nil
}

// AsInt64 returns an int-like value as int64 (bool counts as int).
func AsInt64(v Value) (int64, bool) {
	switch v := v.(type) {
	case Int:
		return int64(v), true
	case Bool:
		if v {
			return 1, true
		}
		return 0, true
	case *Instance:
		if b, ok := v.Base.(Int); ok {
			return int64(b), true // a subclass of int (IntEnum)
		}
	}
	return 0, false
}

// isIntLike reports whether v is an int or bool.
func isIntLike(v Value) bool {
	switch v.(type) {
	case Int, *BigInt, Bool:
		return true
	}
	return false
}

func intBitLen(v Value) int {
	switch v := v.(type) {
	case *BigInt:
		return v.v.BitLen()
	case Int:
		if v < 0 {
			return bits.Len64(uint64(-v))
		}
		return bits.Len64(uint64(v))
	}
	return 1
}

// intBinary does int op int; x and y are Int, *BigInt or Bool.
func intBinary(c Ctx, op Op, x, y Value) (Value, error) {
	a, aok := AsInt64(x)
	b, bok := AsInt64(y)
	if aok && bok {
		switch op {
		case OpAdd:
			r := a + b
			if (r > a) == (b > 0) {
				return MakeInt(r), nil
			}
		case OpSub:
			r := a - b
			if (r < a) == (b > 0) {
				return MakeInt(r), nil
			}
		case OpMul:
			if a == 0 || b == 0 {
				return Int(0), nil
			}
			hi, lo := bits.Mul64(uabs(a), uabs(b))
			if hi == 0 && lo <= math.MaxInt64 {
				r := int64(lo)
				if (a < 0) != (b < 0) {
					r = -r
				}
				return MakeInt(r), nil
			}
		case OpFloorDiv:
			if b == 0 {
				return nil, Errorf(ZeroDivisionError, "integer division or modulo by zero")
			}
			if !(a == math.MinInt64 && b == -1) {
				return MakeInt(floorDiv(a, b)), nil
			}
		case OpMod:
			if b == 0 {
				return nil, Errorf(ZeroDivisionError, "integer modulo by zero")
			}
			// No shortcut for b == -1: Go defines MinInt64 % -1 as 0
			// (no panic), so floorMod gives 0 for every a, as Python
			// does.
			return MakeInt(floorMod(a, b)), nil
		case OpTrueDiv:
			if b == 0 {
				return nil, Errorf(ZeroDivisionError, "division by zero")
			}
			if uabs(a) <= 1<<53 && uabs(b) <= 1<<53 {
				return Float(floatDiv(int64ToFloat(a), int64ToFloat(b))), nil
			}
		case OpAnd:
			return MakeInt(a & b), nil
		case OpOr:
			return MakeInt(a | b), nil
		case OpXor:
			return MakeInt(a ^ b), nil
		case OpLShift:
			if b < 0 {
				return nil, Errorf(ValueError, "negative shift count")
			}
			if a == 0 {
				return Int(0), nil
			}
			if b < 63 && bits.Len64(uabs(a))+int(b) < 63 {
				return MakeInt(a << uint(b)), nil
			}
			if b > meter.MaxIntBits || int64(bits.Len64(uabs(a)))+b > meter.MaxIntBits {
				return nil, Errorf(OverflowError, "int exceeds the %d-bit limit", meter.MaxIntBits)
			}
		case OpRShift:
			if b < 0 {
				return nil, Errorf(ValueError, "negative shift count")
			}
			if b > 63 {
				if a < 0 {
					return MakeInt(-1), nil
				}
				return Int(0), nil
			}
			return MakeInt(a >> uint(b)), nil
		case OpPow:
			if b < 0 {
				if a == 0 {
					return nil, Errorf(ZeroDivisionError, "0.0 cannot be raised to a negative power")
				}
				return floatPowValues(c, int64ToFloat(a), int64ToFloat(b))
			}
			if r, ok := smallPow(a, b); ok {
				return MakeInt(r), nil
			}
		}
	}
	// Big path: charge base + bitlen/64 of the larger operand.
	bl := intBitLen(x)
	if l := intBitLen(y); l > bl {
		bl = l
	}
	if err := Charge(c, meter.BigIntCost(bl)); err != nil {
		return nil, err
	}
	A, B := toBig(x), toBig(y)
	r := new(big.Int)
	switch op {
	case OpAdd:
		r.Add(A, B)
	case OpSub:
		r.Sub(A, B)
	case OpMul:
		if A.BitLen()+B.BitLen() > meter.MaxIntBits+1 {
			return nil, Errorf(OverflowError, "int exceeds the %d-bit limit", meter.MaxIntBits)
		}
		r.Mul(A, B)
	case OpFloorDiv, OpMod:
		if B.Sign() == 0 {
			if op == OpMod {
				return nil, Errorf(ZeroDivisionError, "integer modulo by zero")
			}
			return nil, Errorf(ZeroDivisionError, "integer division or modulo by zero")
		}
		q, m := new(big.Int), new(big.Int)
		// Python floors the quotient, so the remainder takes the divisor's
		// sign. big.Int.DivMod is Euclidean (0 <= m < |B|): that already
		// is Python's answer for B > 0; for B < 0 and m != 0 the floored
		// pair is (q-1, m+B), since A = q*B + m = (q-1)*B + (m+B).
		q.DivMod(A, B, m)
		if m.Sign() != 0 && B.Sign() < 0 {
			q.Sub(q, big.NewInt(1))
			m.Add(m, B)
		}
		if op == OpMod {
			r = m
		} else {
			r = q
		}
	case OpTrueDiv:
		if B.Sign() == 0 {
			return nil, Errorf(ZeroDivisionError, "division by zero")
		}
		f := fl(softfloat.FromRat(A, B))
		if sf(f).IsInf() {
			return nil, Errorf(OverflowError, "integer division result too large for a float")
		}
		return Float(f), nil
	case OpAnd:
		r.And(A, B)
	case OpOr:
		r.Or(A, B)
	case OpXor:
		r.Xor(A, B)
	case OpLShift:
		if B.Sign() < 0 {
			return nil, Errorf(ValueError, "negative shift count")
		}
		if A.Sign() == 0 {
			return Int(0), nil
		}
		if !B.IsInt64() || B.Int64() > meter.MaxIntBits || int64(A.BitLen())+B.Int64() > meter.MaxIntBits {
			return nil, Errorf(OverflowError, "int exceeds the %d-bit limit", meter.MaxIntBits)
		}
		r.Lsh(A, uint(B.Int64()))
	case OpRShift:
		if B.Sign() < 0 {
			return nil, Errorf(ValueError, "negative shift count")
		}
		if !B.IsInt64() || B.Int64() > int64(A.BitLen()) {
			if A.Sign() < 0 {
				return MakeInt(-1), nil
			}
			return Int(0), nil
		}
		r.Rsh(A, uint(B.Int64()))
	case OpPow:
		if B.Sign() < 0 {
			if A.Sign() == 0 {
				return nil, Errorf(ZeroDivisionError, "0.0 cannot be raised to a negative power")
			}
			fa, err := intToFloat(x)
			if err != nil {
				return nil, err
			}
			fb, err := intToFloat(y)
			if err != nil {
				return nil, err
			}
			return floatPowValues(c, fa, fb)
		}
		// Refuse before computing: |A| >= 2 needs about bitlen(A-1)*B bits.
		if A.CmpAbs(big.NewInt(1)) > 0 {
			if !B.IsInt64() || B.Int64() > meter.MaxIntBits || (int64(A.BitLen())-1)*B.Int64() > meter.MaxIntBits {
				return nil, Errorf(OverflowError, "int exceeds the %d-bit limit", meter.MaxIntBits)
			}
		}
		if !B.IsInt64() {
			// A is -1, 0 or 1.
			if A.Sign() < 0 && B.Bit(0) == 1 {
				return MakeInt(-1), nil
			}
			if A.Sign() == 0 {
				return Int(0), nil
			}
			return Int(1), nil
		}
		if err := Charge(c, uint64(B.Int64()/64)*uint64(1+bl/64)); err != nil {
			return nil, err
		}
		r.Exp(A, B, nil)
	default:
		return nil, nil
	}
	return MakeBigInt(r)
}

// PowMod is pow(b, e, m) for ints: the result takes m's sign as Python's %
// does, and a negative e means the modular inverse of b raised to -e
// (Python 3.8+), a ValueError when b and m are not coprime.
func PowMod(c Ctx, b, e, m Value) (Value, error) {
	for _, v := range []Value{b, e, m} {
		if !isIntLike(v) {
			return nil, Errorf(TypeError, "pow() 3rd argument not allowed unless all arguments are integers")
		}
	}
	B, E, M := toBig(b), toBig(e), toBig(m)
	if M.Sign() == 0 {
		return nil, Errorf(ValueError, "pow() 3rd argument cannot be 0")
	}
	bl := B.BitLen()
	if M.BitLen() > bl {
		bl = M.BitLen()
	}
	if err := Charge(c, meter.BigIntCost(bl)*uint64(1+E.BitLen())); err != nil {
		return nil, err
	}
	absM := new(big.Int).Abs(M)
	if absM.Cmp(big.NewInt(1)) == 0 {
		return Int(0), nil // everything is 0 modulo 1, also an "inverse" of 0
	}
	base := new(big.Int).Mod(B, absM) // Euclidean: 0 <= base < |m|
	exp := E
	if E.Sign() < 0 {
		inv := new(big.Int).ModInverse(base, absM)
		if inv == nil || new(big.Int).GCD(nil, nil, base, absM).Cmp(big.NewInt(1)) != 0 {
			return nil, Errorf(ValueError, "base is not invertible for the given modulus")
		}
		base, exp = inv, new(big.Int).Neg(E)
	}
	r := new(big.Int).Exp(base, exp, absM)
	if M.Sign() < 0 && r.Sign() != 0 {
		r.Add(r, M)
	}
	return MakeBigInt(r)
}

func smallPow(a, b int64) (int64, bool) {
	r := int64(1)
	for b > 0 {
		if b&1 == 1 {
			hi, lo := bits.Mul64(uabs(r), uabs(a))
			if hi != 0 || lo > math.MaxInt64 {
				return 0, false
			}
			neg := (r < 0) != (a < 0)
			r = int64(lo)
			if neg {
				r = -r
			}
		}
		b >>= 1
		if b > 0 {
			hi, lo := bits.Mul64(uabs(a), uabs(a))
			if hi != 0 || lo > math.MaxInt64 {
				return 0, false
			}
			a = int64(lo)
		}
	}
	return r, true
}

func uabs(a int64) uint64 {
	if a < 0 {
		return uint64(-a)
	}
	return uint64(a)
}

// IntBinary is Binary's fast path for two ints whose result is an int
// computed without a big int and without an error: it reports false for
// anything else (overflow, a zero divisor, true division, powers, shifts),
// which Binary then handles. It gives exactly Binary's result, and like
// Binary on these operands it charges nothing.
func IntBinary(op Op, x, y Int) (Value, bool) {
	a, b := int64(x), int64(y)
	switch op {
	case OpAdd:
		if r := a + b; (r > a) == (b > 0) {
			return MakeInt(r), true
		}
	case OpSub:
		if r := a - b; (r < a) == (b > 0) {
			return MakeInt(r), true
		}
	case OpMul:
		if a == 0 || b == 0 {
			return Int(0), true
		}
		hi, lo := bits.Mul64(uabs(a), uabs(b))
		if hi == 0 && lo <= math.MaxInt64 {
			r := int64(lo)
			if (a < 0) != (b < 0) {
				r = -r
			}
			return MakeInt(r), true
		}
	case OpFloorDiv:
		if b != 0 && !(a == math.MinInt64 && b == -1) {
			return MakeInt(floorDiv(a, b)), true
		}
	case OpMod:
		// Python's x % -1 is 0 for every x; floorMod gives that for
		// MinInt64 too, since Go defines MinInt64 % -1 as 0 (no panic),
		// so b == -1 needs no shortcut.
		if b != 0 {
			return MakeInt(floorMod(a, b)), true
		}
	case OpAnd:
		return MakeInt(a & b), true
	case OpOr:
		return MakeInt(a | b), true
	case OpXor:
		return MakeInt(a ^ b), true
	}
	return nil, false
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func floorMod(a, b int64) int64 {
	m := a % b
	if m != 0 && ((m < 0) != (b < 0)) {
		m += b
	}
	return m
}

// intToFloat converts an int-like value to float64, raising OverflowError as
// Python does when it is out of range.
func intToFloat(v Value) (float64, error) {
	if i, ok := AsInt64(v); ok {
		return int64ToFloat(i), nil
	}
	f := fl(softfloat.FromBig(toBig(v)))
	if sf(f).IsInf() {
		return 0, Errorf(OverflowError, "int too large to convert to float")
	}
	return f, nil
}

// intUnary negates, inverts or takes the absolute value of an int.
func intUnary(op Op, x Value) (Value, error) {
	if a, ok := AsInt64(x); ok {
		switch op {
		case OpNeg:
			if a != math.MinInt64 {
				return MakeInt(-a), nil
			}
		case OpPos:
			return MakeInt(a), nil
		case OpInvert:
			return MakeInt(^a), nil
		case OpAbs:
			if a >= 0 {
				return MakeInt(a), nil
			}
			if a != math.MinInt64 {
				return MakeInt(-a), nil
			}
		}
	}
	A := toBig(x)
	r := new(big.Int)
	switch op {
	case OpNeg:
		r.Neg(A)
	case OpPos:
		r.Set(A)
	case OpInvert:
		r.Not(A)
	case OpAbs:
		r.Abs(A)
	}
	return MakeBigInt(r)
}

// intCompare compares two int-like values.
func intCompare(x, y Value) int {
	a, aok := AsInt64(x)
	b, bok := AsInt64(y)
	if aok && bok {
		switch {
		case a < b:
			return -1
		case a > b:
			return 1
		}
		return 0
	}
	return toBig(x).Cmp(toBig(y))
}

// ParseInt parses an int literal or int() argument in base (0 = literal
// rules with prefixes), allowing underscores between digits.
func ParseInt(s string, base int) (Value, error) {
	t := trimSpace(s)
	neg := false
	if len(t) > 0 && (t[0] == '+' || t[0] == '-') {
		neg = t[0] == '-'
		t = t[1:]
	}
	if base == 0 || base == 16 || base == 8 || base == 2 {
		if len(t) > 1 && t[0] == '0' {
			p := t[1] | 0x20
			switch {
			case p == 'x' && (base == 0 || base == 16):
				base, t = 16, t[2:]
			case p == 'o' && (base == 0 || base == 8):
				base, t = 8, t[2:]
			case p == 'b' && (base == 0 || base == 2):
				base, t = 2, t[2:]
			}
			if len(t) > 0 && t[0] == '_' {
				t = t[1:]
			}
		}
	}
	if base == 0 {
		base = 10
		if len(t) > 1 && t[0] == '0' {
			for _, ch := range t {
				if ch != '0' && ch != '_' {
					return nil, errBadInt
				}
			}
		}
	}
	if t == "" || t[0] == '_' || t[len(t)-1] == '_' {
		return nil, errBadInt
	}
	clean := make([]byte, 0, len(t))
	for i := 0; i < len(t); i++ {
		if !isAlnumByte(t[i]) && t[i] != '_' {
			return nil, errBadInt // big.Int.SetString would take a second sign
		}
		if t[i] == '_' {
			if t[i-1] == '_' {
				return nil, errBadInt
			}
			continue
		}
		clean = append(clean, t[i])
	}
	// Leading zeros add no value; past them, more digits than a
	// MaxIntBits-bit number can have in this base cannot fit (log2(base)
	// >= 1 bit per digit, so MaxIntBits+1 digits always overflow). The
	// exact cap check is MakeBigInt's.
	lead := 0
	for lead < len(clean)-1 && clean[lead] == '0' {
		lead++
	}
	if len(clean)-lead > meter.MaxIntBits+1 {
		return nil, Errorf(OverflowError, "int exceeds the %d-bit limit", meter.MaxIntBits)
	}
	r, ok := new(big.Int).SetString(string(clean), base)
	if !ok {
		return nil, errBadInt
	}
	if neg {
		r.Neg(r)
	}
	return MakeBigInt(r)
}

var errBadInt = Errorf(ValueError, "invalid int")

func trimSpace(s string) string {
	i, j := 0, len(s)
	for i < j && isSpaceByte(s[i]) {
		i++
	}
	for j > i && isSpaceByte(s[j-1]) {
		j--
	}
	return s[i:j]
}

func isAlnumByte(b byte) bool {
	return b >= '0' && b <= '9' || b|0x20 >= 'a' && b|0x20 <= 'z'
}

func isSpaceByte(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\v' || b == '\f'
}
