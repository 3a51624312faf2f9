package vrf

import "testing"

// TestInputAllocatesOnce pins Input's buffer size: the input is built in
// one allocation of exactly tag ‖ seed ‖ height, so a proposer's per-height
// VRF input costs one allocation and its capacity equals its length. A
// wrong size hint (too small: the last append grows the slice; too large:
// wasted room) fails here.
func TestInputAllocatesOnce(t *testing.T) {
	in := Input([32]byte{1}, 7)
	if len(in) != len(inputTag)+32+8 || cap(in) != len(in) {
		t.Fatalf("Input: len %d cap %d, want both %d", len(in), cap(in), len(inputTag)+32+8)
	}
	var sink []byte
	if n := testing.AllocsPerRun(20, func() { sink = Input([32]byte{2}, 9) }); n != 1 {
		t.Fatalf("Input makes %.0f allocations, want 1", n)
	}
	_ = sink
}
