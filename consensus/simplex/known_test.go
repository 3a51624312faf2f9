package simplex

import "testing"

// TestKnownBlocks: Known lists the proposals above the finalized height,
// with a certificate once one is learned, and drops what became final.
func TestKnownBlocks(t *testing.T) {
	h := newHarness(t, []uint64{1, 1, 1, 1})
	all := []int{0, 1, 2, 3}
	if k := h.node.Known(); len(k) != 0 {
		t.Fatalf("fresh node knows %d blocks", len(k))
	}
	m1, b1 := h.propose(1, h.genesisQC(), "b1", nil)
	if err := h.deliver(m1); err != nil {
		t.Fatal(err)
	}
	type row struct {
		hash      Hash
		certified bool
	}
	check := func(step string, want ...row) {
		t.Helper()
		got := h.node.Known()
		if len(got) != len(want) {
			t.Fatalf("%s: %d known blocks, want %d", step, len(got), len(want))
		}
		for i, w := range want {
			if got[i].Hash != w.hash || got[i].Block.Hash() != w.hash || (got[i].QC != nil) != w.certified {
				t.Fatalf("%s: block %d: %s certified=%v, want %s certified=%v", step, i,
					Short(got[i].Hash), got[i].QC != nil, Short(w.hash), w.certified)
			}
			if w.certified && got[i].QC.BlockHash != w.hash {
				t.Fatalf("%s: certificate names %s", step, Short(got[i].QC.BlockHash))
			}
		}
	}
	check("b1 proposed", row{b1.Hash(), false})
	m2, b2 := h.propose(2, h.qc(b1, all...), "b2", nil)
	if err := h.deliver(m2); err != nil {
		t.Fatal(err)
	}
	check("b2 proposed on certified b1", row{b1.Hash(), true}, row{b2.Hash(), false})
	// b3 certifies b2 in the round after b1's: b1 is final and leaves the list.
	m3, b3 := h.propose(3, h.qc(b2, all...), "b3", nil)
	if err := h.deliver(m3); err != nil {
		t.Fatal(err)
	}
	if s := h.node.Status(); s.FinalizedHeight != 1 {
		t.Fatalf("finalized %d, want 1", s.FinalizedHeight)
	}
	check("b1 final", row{b2.Hash(), true}, row{b3.Hash(), false})
}
