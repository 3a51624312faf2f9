package modules_test

import "testing"

func TestDecimalFixedContext(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"decimal.getcontext().prec = 50", "AttributeError: PVM: the decimal context is fixed"},
		{"decimal.getcontext().rounding = decimal.ROUND_UP", "AttributeError: PVM: the decimal context is fixed"},
		{"decimal.setcontext(decimal.getcontext())", "TypeError: PVM: decimal.setcontext() is not available"},
		{"decimal.localcontext()", "TypeError: PVM: decimal.localcontext() is not available"},
		{"decimal.Decimal('1e200000')", "decimal.Overflow: [<class 'decimal.Overflow'>]"},
		{"decimal.Decimal((0, (1,), 0.5))", "ValueError: exponent must be an integer"},
		{"decimal.Decimal(1) / 0", "decimal.DivisionByZero: [<class 'decimal.DivisionByZero'>]"},
		{"decimal.Decimal('x')", "decimal.InvalidOperation: [<class 'decimal.ConversionSyntax'>]"},
	} {
		raises(t, "import decimal\n"+c.src+"\n", c.want)
	}
	out, _ := mustRun(t, "import decimal\nprint(decimal.getcontext())\n")
	if want := "Context(prec=28, rounding=ROUND_HALF_EVEN, Emin=-999999, Emax=999999, capitals=1, clamp=0, flags=[], traps=[InvalidOperation, DivisionByZero, Overflow])\n"; out != want {
		t.Errorf("got %q", out)
	}
}

// TestDecimalCost shows arithmetic on longer numbers costs more, in
// proportion to their digits.
func TestDecimalCost(t *testing.T) {
	proportional(t, "from decimal import Decimal\nx = Decimal('1' + '0' * N)\ny = x + x\n", 10)
}
