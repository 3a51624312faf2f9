package simplex

import "testing"

// TestKnownOrdersByHeightFirst: Known sorts by height before round, so a
// fork's later-round block at a lower height comes before an earlier-round
// block above it. b1 ← b2 (round 2) ← b3 (round 3) finalizes b1; then the
// round-5 leader forks at height 2 on b1 (justified by a timeout of round
// 4). The node stores the fork (it does not vote: it is locked on b2's
// round), and lists b2 (h2 r2), the fork (h2 r5), b3 (h3 r3).
func TestKnownOrdersByHeightFirst(t *testing.T) {
	h := newHarness(t, []uint64{1, 1, 1, 1})
	all := []int{0, 1, 2, 3}
	m1, b1 := h.propose(1, h.genesisQC(), "b1", nil)
	m2, b2 := h.propose(2, h.qc(b1, all...), "b2", nil)
	m3, b3 := h.propose(3, h.qc(b2, all...), "b3", nil)
	for _, m := range []Message{m1, m2, m3} {
		if err := h.deliver(m); err != nil {
			t.Fatal(err)
		}
	}
	if s := h.node.Status(); s.FinalizedHeight != 1 {
		t.Fatalf("finalized %d, want 1", s.FinalizedHeight)
	}
	m5, fork := h.propose(5, h.qc(b1, all...), "fork", h.tc(4, all...))
	if err := h.deliver(m5); err != nil {
		t.Fatal(err)
	}
	want := []*Block{b2, fork, b3}
	got := h.node.Known()
	if len(got) != len(want) {
		t.Fatalf("%d known blocks, want %d", len(got), len(want))
	}
	for i, w := range want {
		if got[i].Hash != w.Hash() {
			t.Errorf("known[%d] = h%d r%d, want h%d r%d", i, got[i].Block.Height, got[i].Block.Round, w.Height, w.Round)
		}
	}
}

// TestReadyEmpty: Ready is empty only when every field a node can fill is
// empty, so a driver loop `for n.HasReady()` ends once it took everything
// and never skips work; and a node drained by Ready has nothing more.
func TestReadyEmpty(t *testing.T) {
	if zero := (Ready{}); !zero.Empty() {
		t.Fatal("the zero Ready is not empty")
	}
	for _, tc := range []struct {
		name string
		r    Ready
	}{
		{"HardState", Ready{HardState: &HardState{}}},
		{"Messages", Ready{Messages: []Message{{}}}},
		{"ProposeRequest", Ready{ProposeRequest: &ProposeRequest{}}},
		{"Verify", Ready{Verify: []*Block{{}}}},
		{"Committed", Ready{Committed: []Certified{{}}}},
		{"Finalized", Ready{Finalized: []Certified{{}}}},
		{"Evidence", Ready{Evidence: []Evidence{{}}}},
	} {
		if tc.r.Empty() {
			t.Errorf("a Ready with only %s set is empty", tc.name)
		}
	}
	h := newHarness(t, []uint64{1, 1, 1, 1})
	m1, _ := h.propose(1, h.genesisQC(), "b1", nil)
	if err := h.node.Step(m1); err != nil {
		t.Fatal(err)
	}
	if !h.node.HasReady() {
		t.Fatal("a proposal to judge left nothing in Ready")
	}
	if rd := h.node.Ready(); len(rd.Verify) != 1 || rd.HardState != nil {
		t.Fatalf("Ready after a proposal: %d to verify, hard state %v", len(rd.Verify), rd.HardState)
	}
	if h.node.HasReady() {
		t.Fatal("HasReady after Ready took everything")
	}
}
