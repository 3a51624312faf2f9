package node

import "testing"

// TestSplitRound: cowboy_consensusStatus and cowboy_getBlockStatus report a
// round within its epoch and the epoch beside it, never the packed
// epoch<<32 + r the consensus counts in (issue 16 saw 0x100000002).
func TestSplitRound(t *testing.T) {
	for _, tt := range []struct{ packed, epoch, round uint64 }{
		{0, 0, 0},
		{7, 0, 7},
		{1<<32 + 2, 1, 2},
		{roundBase(40) + 123456, 40, 123456},
	} {
		e, r := splitRound(tt.packed)
		if uint64(e) != tt.epoch || uint64(r) != tt.round {
			t.Errorf("splitRound(%#x) = epoch %d round %d, want %d %d", tt.packed, e, r, tt.epoch, tt.round)
		}
	}
}
