package object

import (
	"fmt"
	"math/rand"
	"testing"
)

// TestStrDictSmallAndIndexed drives namespaces through random binds,
// rebinds and deletes around the size where they gain a map index
// (smallStrDict), and through CopyShared copies, against a model that
// keeps names in insertion order: lookups, slots, lengths and order must
// agree in both forms, and the filter of names added (MayHave) must
// never deny a bound name.
func TestStrDictSmallAndIndexed(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for round := 0; round < 200; round++ {
		d := NewStrDict()
		var order []string
		vals := map[string]int64{}
		names := 4 + r.Intn(20)
		for step := 0; step < 300; step++ {
			name := fmt.Sprintf("n%d", r.Intn(names))
			switch op := r.Intn(10); {
			case op < 6:
				v := int64(step)
				added := d.Put(name, Int(v))
				if _, had := vals[name]; had == added {
					t.Fatalf("round %d step %d: Put(%s) added %v with the name bound %v", round, step, name, added, had)
				}
				if added {
					order = append(order, name)
				}
				vals[name] = v
			case op < 9:
				ok := d.Delete(name)
				if _, had := vals[name]; ok != had {
					t.Fatalf("round %d step %d: Delete(%s) = %v, want %v", round, step, name, ok, had)
				}
				if ok {
					delete(vals, name)
					for i, n := range order {
						if n == name {
							order = append(order[:i], order[i+1:]...)
							break
						}
					}
				}
			default:
				d = d.CopyShared()
			}
			if d.Len() != len(order) {
				t.Fatalf("round %d step %d: Len %d, want %d", round, step, d.Len(), len(order))
			}
			var got []string
			d.Each(func(n string, v Value) { got = append(got, n) })
			if fmt.Sprint(got) != fmt.Sprint(order) {
				t.Fatalf("round %d step %d: order %v, want %v", round, step, got, order)
			}
			for i := 0; i < names; i++ {
				n := fmt.Sprintf("n%d", i)
				v, ok := d.Get(n)
				want, had := vals[n]
				if ok != had || (ok && v != Int(want)) || d.Has(n) != had || (had && !d.MayHave(NameBit(n))) {
					t.Fatalf("round %d step %d: %s = %v %v, want %v %v", round, step, n, v, ok, want, had)
				}
				if slot, ok := d.Slot(n); ok != had || (ok && d.At(slot) != Int(want)) {
					t.Fatalf("round %d step %d: slot of %s wrong", round, step, n)
				}
			}
		}
	}
}
