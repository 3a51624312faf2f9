package softfloat

// Eq reports a == b: false if either is NaN, and +0 == -0.
func Eq(a, b F64) bool {
	if a.IsNaN() || b.IsNaN() {
		return false
	}
	return a == b || (a|b)&^signMask == 0
}

// Lt reports a < b: false if either is NaN.
func Lt(a, b F64) bool {
	if a.IsNaN() || b.IsNaN() {
		return false
	}
	return ordered(a) < ordered(b)
}

// Le reports a <= b: false if either is NaN.
func Le(a, b F64) bool {
	if a.IsNaN() || b.IsNaN() {
		return false
	}
	return ordered(a) <= ordered(b)
}

// Gt reports a > b: false if either is NaN.
func Gt(a, b F64) bool { return Lt(b, a) }

// Ge reports a >= b: false if either is NaN.
func Ge(a, b F64) bool { return Le(b, a) }

// ordered maps a non-NaN value to an int64 whose order is the numeric order,
// with both zeros mapping to 0.
func ordered(a F64) int64 {
	if a.sign() {
		return -int64(a &^ signMask)
	}
	return int64(a)
}

// Max returns the larger of a and b for non-NaN inputs (b if they compare
// equal).
func Max(a, b F64) F64 {
	if Lt(b, a) {
		return a
	}
	return b
}
