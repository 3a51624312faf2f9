package vm

import (
	"testing"
	"unsafe"
)

// TestSmallGeneratorSize pins the Go size of the generator allocations
// (every generator and generator expression makes one): the sizes of
// the small generator keep it in the 288-byte size class with room for a
// generator expression's frame (its iterator, its variable and a value
// stack of five).
func TestSmallGeneratorSize(t *testing.T) {
	tests := []struct {
		name     string
		size     uintptr
		max      uintptr
		slots    int
		minSlots int
	}{
		{"smallGenerator", unsafe.Sizeof(smallGenerator{}), 288, len(smallGenerator{}.slots), 7},
	}
	for _, tt := range tests {
		if tt.size > tt.max {
			t.Errorf("%s is %d bytes, want at most %d (Go's size class)", tt.name, tt.size, tt.max)
		}
		if tt.slots < tt.minSlots {
			t.Errorf("%s has %d slots, want at least %d", tt.name, tt.slots, tt.minSlots)
		}
	}
}

// TestFunctionSize pins the Go size of a function object: MAKE_FUNCTION
// makes one for every generator expression and lambda it runs, so the
// rarely set fields live behind Function.extra and a function with its
// one-cell closure (functionCell) stays in the 160-byte size class.
func TestFunctionSize(t *testing.T) {
	tests := []struct {
		name string
		size uintptr
		max  uintptr
	}{
		{"Function", unsafe.Sizeof(Function{}), 144},
		{"functionCell", unsafe.Sizeof(functionCell{}), 160},
	}
	for _, tt := range tests {
		if tt.size > tt.max {
			t.Errorf("%s is %d bytes, want at most %d (Go's size class)", tt.name, tt.size, tt.max)
		}
	}
}
