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
			code, err := File("t.py", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			got := 0
			for i, in := range code.Instrs {
				set := code.AfterArith(i)
				if set {
					got++
				}
				prevArith := i > 0 && isArith(code.Instrs[i-1].Op)
				if set && (!isArith(in.Op) || !prevArith) {
					t.Errorf("bit set on %d (%s after %s)", i, in.Op, code.Instrs[i-1].Op)
				}
			}
			if got != tt.want {
				t.Errorf("%d instructions marked, want %d", got, tt.want)
			}
			if code.AfterArith(len(code.Instrs) + 64) {
				t.Error("bit set past the end")
			}
		})
	}
}
