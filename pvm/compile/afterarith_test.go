package compile

import "testing"

// TestArithAfterArith checks Code.AfterArith on module code: set on a
// BINARY_OP or INPLACE_OP right after another one, never on a jump's
// target nor after any other instruction.
func TestArithAfterArith(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want int // BINARY_OP/INPLACE_OP instructions with the bit set
	}{
		{"product then sum", "y = x + a * b\n", 1},
		{"two products", "y = a * b + c * d\n", 1},
		{"left chain", "y = a * b * c * d\n", 0},
		{"right chain", "y = a * (b * (c * d))\n", 2},
		{"inplace of product", "v[0] -= d * m\n", 1},
		{"loads between", "y = a * b\nz = y + c\n", 0},
		{"join of a conditional", "y = (a * b if c else d * e) + f\n", 0},
		// The outer * follows b * d in the code but is also the jump
		// target of the `a` branch: not marked.
		{"jump target after a product", "y = x * (a if c else b * d)\n", 0},
		{"same without the branch", "y = x * (b * d)\n", 1},
		{"single op", "y = a + b\n", 0},
		{"compare is not arith", "y = (a < b) + c\n", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkMarks(t, tt.src, tt.want, (*Code).AfterArith, func(code *Code, i int) string {
				if in := code.Instrs[i]; i == 0 || !isArith(in.Op) || !isArith(code.Instrs[i-1].Op) {
					if i == 0 {
						return in.Op.String() + " first"
					}
					return in.Op.String() + " after " + code.Instrs[i-1].Op.String()
				}
				return ""
			})
		})
	}
}
