package object

import (
	"testing"

	"github.com/cowboy-chain/cowboy/pvm/meter"
)

// TestAddInstanceAttrOnlyWithRoom checks that AddInstanceAttr adds a new
// attribute exactly when the meter's counter takes the entry without a
// live-heap walk, so its charge cannot fail, and otherwise changes
// nothing (no binding, no charge, no walk) for SetAttr to run instead.
func TestAddInstanceAttrOnlyWithRoom(t *testing.T) {
	const limit = 4096
	tests := []struct {
		name  string
		room  int64 // limit minus the counter before the store; negative: over the limit
		added bool
	}{
		{"room to spare", 1000, true},
		{"exactly the entry", int64(meter.SizeDictEntry), true},
		{"one byte short", int64(meter.SizeDictEntry) - 1, false},
		{"full", 0, false},
		{"over the limit after a walk", -100, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := meter.New(meter.Limits{Cycles: 1 << 40, MemoryLimit: limit})
			walks := 0
			m.SetMeasurer(func() (uint64, error) {
				walks++
				return uint64(limit - tt.room), nil
			})
			c := &testCtx{m: m}
			k, err := NewClass("K", "m", nil, NewStrDict())
			if err != nil {
				t.Fatal(err)
			}
			x, err := NewInstance(c, k)
			if err != nil {
				t.Fatal(err)
			}
			// Bring the counter to limit - room: a walk sets it when the
			// room is negative (the live heap found over the limit).
			if used := int64(m.MemoryUsed()); tt.room >= 0 {
				if err := m.Alloc(uint64(limit - tt.room - used)); err != nil {
					t.Fatal(err)
				}
			} else if err := m.Alloc(limit); err == nil {
				t.Fatal("the walk found more than the limit live, yet Alloc succeeded")
			}
			before, walksBefore := m.MemoryUsed(), walks
			got := AddInstanceAttr(m, x, "a", Int(1))
			if got != tt.added {
				t.Fatalf("AddInstanceAttr = %v, want %v", got, tt.added)
			}
			want := before
			if tt.added {
				want += meter.SizeDictEntry
			}
			if m.MemoryUsed() != want || walks != walksBefore {
				t.Errorf("counter %d after %d walks, want %d after %d", m.MemoryUsed(), walks, want, walksBefore)
			}
			if v, ok := x.Dict.Get("a"); ok != tt.added || ok && v != Int(1) {
				t.Errorf("binding after the store: %v %v, want bound %v", v, ok, tt.added)
			}
		})
	}
}

// TestClassAttrFixedAgreesWithGetAttr binds every name classAttr answers
// from the class itself (and a few it looks up in the MRO) in a class's
// namespace, and checks that wherever ClassAttrFixed answers, GetAttr
// returns the same value: the interpreter's class inline cache returns
// what ClassAttrFixed said.
func TestClassAttrFixedAgreesWithGetAttr(t *testing.T) {
	names := []string{"__name__", "__qualname__", "__module__", "__mro__", "__bases__",
		"__class__", "__annotations__", "__dict__", "__doc__", "mro", "x"}
	c := newCtx()
	d := NewStrDict()
	for _, n := range names {
		d.Set(n, Str("in the namespace: "+n))
	}
	k, err := NewClass("K", "m", nil, d)
	if err != nil {
		t.Fatal(err)
	}
	fixed := 0
	for _, n := range names {
		v, bindClass, ok := ClassAttrFixed(k, n)
		if own := classOwnName(n) != notClassOwn; own == ok {
			t.Errorf("%s: ClassAttrFixed ok = %v, classAttr answers it itself: %v", n, ok, own)
		}
		if !ok {
			continue
		}
		fixed++
		got, err := GetAttr(c, k, n)
		if err != nil || bindClass || got != v {
			t.Errorf("%s: GetAttr = %v, %v; ClassAttrFixed = %v (bind %v)", n, got, err, v, bindClass)
		}
	}
	if fixed != 3 {
		t.Errorf("%d names answered by ClassAttrFixed, want 3 (__doc__, mro, x)", fixed)
	}
}
