package pvm

import (
	"math/big"
	"testing"

	"github.com/cowboy-chain/cowboy/pvm/meter"
)

func cyclesOf(t *testing.T, src string) uint64 {
	t.Helper()
	r, err := RunFile("m.py", []byte(src), Config{CyclesLimit: 1 << 40})
	if err != nil {
		t.Fatalf("%q: %v", src, err)
	}
	return r.CyclesUsed
}

// TestSurcharges checks that the dynamic surcharges of issue 4 grow with
// operand size exactly as the cost table says: the same program shape with
// a bigger operand costs the table's per-unit price more, and nothing else.
func TestSurcharges(t *testing.T) {
	cases := []struct {
		name       string
		small, big string
		want       uint64
	}{
		// 'a' * n: n characters of string work.
		{"str repeat", "s = 'a' * 10\n", "s = 'a' * 1010\n", 1000 * meter.CostPerChar},
		// [0] * n: n list slots.
		{"list repeat", "l = [0] * 10\n", "l = [0] * 1010\n", 1000 * meter.CostPerElem},
		// sum over n elements: one per-element unit each (range iteration is
		// charged through the iterator protocol).
		{"sum", "x = sum([1] * 10)\n", "x = sum([1] * 1010)\n", 1000*meter.CostPerElem + 1000*meter.CostPerElem},
		// big-int multiply: base + bitlen/64 of the larger operand.
		{"bigint", "x = " + pow2(64) + " * 3\n", "x = " + pow2(1024) + " * 3\n", meter.BigIntCost(1025) - meter.BigIntCost(65)},
	}
	for _, c := range cases {
		got := cyclesOf(t, c.big) - cyclesOf(t, c.small)
		if got != c.want {
			t.Errorf("%s: surcharge %d cycles, want %d", c.name, got, c.want)
		}
	}
}

// TestFixedCosts checks per-construct prices from the table: a call, a
// raise and a handled exception.
func TestFixedCosts(t *testing.T) {
	base := cyclesOf(t, "def f():\n    return 1\n")
	call := cyclesOf(t, "def f():\n    return 1\nf()\n") - base
	// LOAD_GLOBAL + CALL + POP_TOP around the callee's LOAD_CONST and
	// RETURN_VALUE, plus the call itself.
	if want := meter.CostGlobal + meter.CostBase + meter.CostBase + meter.CostCall + 2*meter.CostBase; call != want {
		t.Errorf("call costs %d, want %d", call, want)
	}
	noRaise := cyclesOf(t, "try:\n    pass\nexcept ValueError:\n    pass\n")
	raised := cyclesOf(t, "try:\n    raise ValueError\nexcept ValueError:\n    pass\n")
	if raised <= noRaise+meter.CostRaise+meter.CostHandlerJump {
		t.Errorf("raise+handler adds %d cycles, want more than raise (%d) + handler jump (%d)", raised-noRaise, meter.CostRaise, meter.CostHandlerJump)
	}
}

// pow2 is the decimal literal of 2**n, so a test can use a big int without
// paying for computing it.
func pow2(n uint) string { return new(big.Int).Lsh(big.NewInt(1), n).String() }
