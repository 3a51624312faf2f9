package object

import (
	"testing"

	"github.com/cowboy-chain/cowboy/pvm/meter"
)

// TestAttrDictHeapWalk checks that the live-heap walk counts an
// instance's attributes once however many __dict__ views and iterators
// refer to them: a view is a small object over the namespace the
// instance holds, not a copy of it.
func TestAttrDictHeapWalk(t *testing.T) {
	c := newCtx()
	k, err := NewClass("A", "__main__", nil, NewStrDict())
	if err != nil {
		t.Fatal(err)
	}
	in, err := NewInstance(c, k)
	if err != nil {
		t.Fatal(err)
	}
	in.Dict.Set("x", Int(1))
	in.Dict.Set("y", Int(2))
	walk := func(roots ...Value) uint64 {
		w := NewHeapWalk(func(uint64) error { return nil }, nil)
		for _, r := range roots {
			w.Visit(r)
		}
		n, err := w.Run()
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	base := walk(in)
	d1, err := AttrDict(c, in.Dict)
	if err != nil {
		t.Fatal(err)
	}
	d2, _ := AttrDict(c, in.Dict)
	it, err := Iter(c, d1)
	if err != nil {
		t.Fatal(err)
	}
	view := meter.SizeObject + meter.SizePointer
	tests := []struct {
		name  string
		roots []Value
		want  uint64
	}{
		{"instance", []Value{in}, base},
		{"instance and two views", []Value{in, d1, d2}, base + 2*view},
		{"view and iterator", []Value{in, d1, it}, base + 2*view},
		{"a view alone", []Value{d1}, meter.SizeDictHeader + 2*meter.SizeDictEntry + view},
	}
	for _, tt := range tests {
		if got := walk(tt.roots...); got != tt.want {
			t.Errorf("%s: %d bytes, want %d", tt.name, got, tt.want)
		}
	}
}

// TestAttrDictIsTheNamespace checks the dict operations of an attribute
// dict against its namespace, and the refusal of a non-str key.
func TestAttrDictIsTheNamespace(t *testing.T) {
	c := newCtx()
	ns := NewStrDict()
	ns.Set("a", Int(1))
	d, err := AttrDict(c, ns)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Set(c, Str("b"), Int(2)); err != nil {
		t.Fatal(err)
	}
	if v, ok := ns.Get("b"); !ok || v != Int(2) {
		t.Errorf("d['b'] = 2 did not bind b: %v %v", v, ok)
	}
	ns.Set("c", Int(3))
	if v, ok, _ := d.Get(c, Str("c")); !ok || v != Int(3) || d.Len() != 3 {
		t.Errorf("a binding of c is not in the dict: %v %v len %d", v, ok, d.Len())
	}
	if _, ok, _ := d.Delete(c, Str("a")); !ok || ns.Has("a") {
		t.Errorf("del d['a'] left a bound")
	}
	if got := len(d.Keys()); got != 2 {
		t.Errorf("keys: %d, want 2", got)
	}
	if err := d.Set(c, Int(1), Int(1)); excClass(err) != TypeError {
		t.Errorf("d[1] = 1: got %v, want TypeError", err)
	}
	if _, ok, err := d.Get(c, Int(1)); ok || err != nil {
		t.Errorf("d[1]: got %v %v, want not found", ok, err)
	}
	if _, _, err := d.Get(c, &List{}); excClass(err) != TypeError {
		t.Errorf("d[[]]: got %v, want unhashable TypeError", err)
	}
	it, _ := Iter(c, d)
	if _, _, err := Next(c, it); err != nil {
		t.Fatal(err)
	}
	ns.Set("new", Int(4))
	if _, _, err := Next(c, it); excClass(err) != RuntimeError {
		t.Errorf("next after a new name: got %v, want RuntimeError", err)
	}
}
