package compile

import "testing"

// TestSliceTemps checks Code.SliceTemp on module code: set only on the
// BINARY_SUBSCR that computes the value of a one-target assignment
// a[s:t] = b[u:v], the value the statement's STORE_SUBSCR then takes.
func TestSliceTemps(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want int // BINARY_SUBSCR instructions with the bit set
	}{
		{"reversal into a prefix", "perm[:k + 1] = perm[k::-1]\n", 1},
		{"copy into all", "a[:] = b[1:3]\n", 1},
		{"two statements", "a[:] = b[:]\nc[1:] = d[:2]\n", 2},
		{"slice inside the target's bound", "a[b[1:2][0]:] = c[::-1]\n", 1},
		{"index value", "a[1:2] = b[0]\n", 0},
		{"index target", "a[1] = b[1:2]\n", 0},
		{"two targets", "a[:] = c[:] = b[1:]\n", 0},
		{"name target", "x = b[1:]\n", 0},
		{"attribute target", "o.x = b[1:]\n", 0},
		{"value not a subscript", "a[:] = list(b[1:])\n", 0},
		{"augmented", "a[1:] += b[1:]\n", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkMarks(t, tt.src, tt.want, (*Code).SliceTemp, func(code *Code, i int) string {
				if op := code.Instrs[i].Op; op != BINARY_SUBSCR {
					return op.String()
				}
				return ""
			})
		})
	}
}
