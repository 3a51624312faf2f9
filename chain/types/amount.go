package types

import (
	"errors"
	"fmt"
	"math/big"
	"strings"
)

// Amounts as users write them (spec/README.md "base unit"): 1 CBY = 10^18
// base units, and every on-chain amount is an integer of base units. The
// text forms are exact decimal strings; no float is ever involved, because
// a rounding error in an amount moves someone's money.

// CBYDecimals is how many decimal places of CBY a base unit is.
const CBYDecimals = 18

// baseUnitsPerCBY is 10^CBYDecimals; it is private so nobody can mutate it.
var baseUnitsPerCBY = new(big.Int).Exp(big.NewInt(10), big.NewInt(CBYDecimals), nil)

// maxAmount is the largest value a transaction can carry (2^256-1, §2.5).
var maxAmount = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), maxValueBits), big.NewInt(1))

// ErrAmount is wrapped by every error of ParseAmount, so a caller can tell
// a malformed amount from its own failures.
var ErrAmount = errors.New("invalid amount")

// ParseAmount reads an amount as a user types it:
//
//	1.5cby, 1.5CBY, 1.5 cby, 0.000000000000000001cby   CBY with up to 18 decimals
//	1000                                               an integer of base units
//
// It refuses negative amounts, a fraction without the cby unit (a fraction
// of a base unit does not exist), more than 18 decimals, exponents, digit
// separators ("1,5" means 1.5 in much of the world, so a comma is never
// guessed at) and anything at or above 2^256.
func ParseAmount(s string) (*big.Int, error) {
	in := strings.TrimSpace(s)
	if in == "" {
		return nil, fmt.Errorf("%w: empty: write e.g. 1.5cby or an integer of base units", ErrAmount)
	}
	if in[0] == '-' {
		return nil, fmt.Errorf("%w %q: amounts cannot be negative", ErrAmount, s)
	}
	if in[0] == '+' {
		return nil, fmt.Errorf("%w %q: write the number without a sign", ErrAmount, s)
	}
	num, isCBY := in, false
	if len(in) >= 3 && strings.EqualFold(in[len(in)-3:], "cby") {
		num, isCBY = strings.TrimSpace(in[:len(in)-3]), true
	}
	if strings.ContainsAny(num, ",_") {
		return nil, fmt.Errorf("%w %q: write the number without separators, e.g. 1000000cby", ErrAmount, s)
	}
	whole, frac, hasDot := strings.Cut(num, ".")
	if num == "" || !digitsOnly(whole) || !digitsOnly(frac) || (hasDot && (whole == "" || frac == "")) {
		return nil, fmt.Errorf("%w %q: want digits such as 1.5cby or 1000 (base units)", ErrAmount, s)
	}
	if hasDot && !isCBY {
		return nil, fmt.Errorf("%w %q: a plain number is an integer of base units; for CBY write %scby", ErrAmount, s, num)
	}
	if len(frac) > CBYDecimals {
		return nil, fmt.Errorf("%w %q: more than %d decimals (1 base unit is 0.000000000000000001 CBY)", ErrAmount, s, CBYDecimals)
	}
	v, ok := new(big.Int).SetString(whole, 10)
	if !ok {
		return nil, fmt.Errorf("%w %q: want digits such as 1.5cby or 1000 (base units)", ErrAmount, s)
	}
	if isCBY {
		v.Mul(v, baseUnitsPerCBY)
		if frac != "" {
			f, _ := new(big.Int).SetString(frac+strings.Repeat("0", CBYDecimals-len(frac)), 10)
			v.Add(v, f)
		}
	}
	if v.Cmp(maxAmount) > 0 {
		return nil, fmt.Errorf("%w %q: too large (at most 2^256-1 base units)", ErrAmount, s)
	}
	return v, nil
}

func digitsOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// FormatCBY writes base units as CBY, exactly, with thousands separators
// in the whole part and no trailing zeros: "1,000,000 CBY", "1.5 CBY",
// "0.000000000000000001 CBY". nil is "0 CBY".
func FormatCBY(v *big.Int) string {
	if v == nil {
		return "0 CBY"
	}
	sign := ""
	abs := new(big.Int).Set(v)
	if abs.Sign() < 0 {
		sign = "-"
		abs.Neg(abs)
	}
	whole, frac := new(big.Int).QuoRem(abs, baseUnitsPerCBY, new(big.Int))
	out := sign + GroupDigits(whole.String())
	if frac.Sign() != 0 {
		f := frac.String()
		f = strings.Repeat("0", CBYDecimals-len(f)) + f
		out += "." + strings.TrimRight(f, "0")
	}
	return out + " CBY"
}

// GroupDigits puts a comma between each group of three digits of a
// decimal integer string ("1000000" -> "1,000,000"), so large counts of
// base units, Cycles or Cells stay readable. A leading '-' is kept.
func GroupDigits(s string) string {
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	if len(s) <= 3 {
		if neg {
			return "-" + s
		}
		return s
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	head := len(s) % 3
	if head == 0 {
		head = 3
	}
	b.WriteString(s[:head])
	for i := head; i < len(s); i += 3 {
		b.WriteByte(',')
		b.WriteString(s[i : i+3])
	}
	return b.String()
}
