package node

import (
	"slices"
	"time"
)

// waitQuiet waits until no running node's head has moved for still, and
// fails the test if that does not happen within timeout: "finality stopped"
// checked without guessing how long the blocks already certified take to
// land on a loaded machine (a fixed sleep followed by "the height did not
// move" fails when they land late).
func (tn *testNet) waitQuiet(still, timeout time.Duration) {
	tn.t.Helper()
	heights := func() []uint64 {
		var hs []uint64
		for _, n := range tn.running() {
			hs = append(hs, n.Head().Height)
		}
		return hs
	}
	deadline := time.Now().Add(timeout)
	last, since := heights(), time.Now()
	for time.Since(since) < still {
		if time.Now().After(deadline) {
			tn.t.Fatalf("heights kept moving (now %v) for %s: finality did not stop", last, timeout)
		}
		time.Sleep(100 * time.Millisecond)
		if hs := heights(); !slices.Equal(hs, last) {
			last, since = hs, time.Now()
		}
	}
}
