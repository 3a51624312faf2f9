package object

import "testing"

// TestIsNone checks IsNone against v == None, which it replaces on hot
// paths: the same answer for None, for values that are falsy or empty
// like None, and for a nil Value.
func TestIsNone(t *testing.T) {
	for _, v := range []Value{None, NoneType{}, nil, Int(0), Bool(false), Str(""), Tuple{}, Float(0), NotImplemented} {
		if got, want := IsNone(v), v == None; got != want {
			t.Errorf("IsNone(%#v) = %v, want %v", v, got, want)
		}
	}
}
