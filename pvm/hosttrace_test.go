package pvm

import (
	"math/big"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/pvm/object"
)

// TestTraceValue pins the trace's formatting against what CPython's repr
// prints for the same values.
func TestTraceValue(t *testing.T) {
	for _, tt := range []struct {
		v    object.Value
		want string
	}{
		{object.None, "None"},
		{object.True, "True"},
		{object.Int(-42), "-42"},
		{bigInt(t, new(big.Int).Lsh(big.NewInt(1), 70)), "1180591620717411303424"},
		{object.Str("it's"), `"it's"`},
		{object.Str("a\nb\\"), `'a\nb\\'`},
		{object.Str("a\\nb"), `'a\\nb'`},
		{object.Str("é"), "'é'"},
		{object.Bytes("\x00ab\xff'"), `b"\x00ab\xff'"`},
		{object.Bytes("\t'\""), `b'\t\'"'`},
		{object.Bytes("q"), "b'q'"},
		{object.Tuple{object.Int(1)}, "(1,)"},
		{object.Tuple{object.Int(1), object.Str("x")}, "(1, 'x')"},
		{&object.List{Elems: []object.Value{object.None, object.Bytes("")}}, "[None, b'']"},
		{object.Str(strings.Repeat("x", 300)), "'" + strings.Repeat("x", 199) + "…"},
	} {
		if got := TraceValue(tt.v); got != tt.want {
			t.Errorf("TraceValue(%s): %s, want %s", tt.want, got, tt.want)
		}
	}
}

func bigInt(t *testing.T, v *big.Int) object.Value {
	x, err := object.MakeBigInt(v)
	if err != nil {
		t.Fatal(err)
	}
	return x
}
