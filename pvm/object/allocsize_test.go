package object

import (
	"testing"
	"unsafe"
)

// TestAllocSizes pins the Go size of allocations every program makes
// many of, each at the top of a Go size class: one field more moves it
// up a class, and every such object costs the collector that much more.
func TestAllocSizes(t *testing.T) {
	tests := []struct {
		name string
		size uintptr
		max  uintptr
	}{
		// An instance, its dictionary and room for four attributes.
		{"instanceMem", unsafe.Sizeof(instanceMem{}), 256},
		// A set built from an iterable, with its first eight entries.
		{"smallSet", unsafe.Sizeof(smallSet{}), 384},
	}
	for _, tt := range tests {
		if tt.size > tt.max {
			t.Errorf("%s is %d bytes, want at most %d (Go's size class)", tt.name, tt.size, tt.max)
		}
	}
}
