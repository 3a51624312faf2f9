package object

import (
	"math/rand"
	"testing"
)

// TestHashtableCollisions drives a dict with keys that share hashes
// (k, k + 2**61-1 and k + 2*(2**61-1) hash alike, as in CPython) through
// random inserts, deletes (enough to compact) and lookups, against a model
// that keeps keys in insertion order: the first position of a hash and the
// further ones (hashtable.more) must stay consistent through removals.
func TestHashtableCollisions(t *testing.T) {
	const mod = 1<<61 - 1
	h1, _ := HashOf(newCtx(), Int(5))
	h2, _ := HashOf(newCtx(), Int(5+2*mod))
	if h1 != h2 {
		t.Fatalf("keys meant to collide hash to %d and %d", h1, h2)
	}
	r := rand.New(rand.NewSource(18))
	for round := 0; round < 50; round++ {
		c := newCtx()
		d := NewDict()
		var model []int64 // keys in insertion order
		vals := map[int64]int64{}
		for step := 0; step < 400; step++ {
			k := int64(r.Intn(6)) + int64(r.Intn(3))*mod
			switch r.Intn(3) {
			case 0, 1:
				v := int64(step)
				if err := d.Set(c, Int(k), Int(v)); err != nil {
					t.Fatal(err)
				}
				if _, ok := vals[k]; !ok {
					model = append(model, k)
				}
				vals[k] = v
			case 2:
				_, ok, err := d.Delete(c, Int(k))
				if err != nil {
					t.Fatal(err)
				}
				if _, want := vals[k]; ok != want {
					t.Fatalf("round %d step %d: delete %d found %v, want %v", round, step, k, ok, want)
				}
				if ok {
					delete(vals, k)
					for i, m := range model {
						if m == k {
							model = append(model[:i], model[i+1:]...)
							break
						}
					}
				}
			}
			keys := d.Keys()
			if len(keys) != len(model) {
				t.Fatalf("round %d step %d: %d keys, want %d", round, step, len(keys), len(model))
			}
			for i, k := range model {
				if keys[i] != Int(k) {
					t.Fatalf("round %d step %d: key %d is %v, want %d", round, step, i, keys[i], k)
				}
				v, ok, err := d.Get(c, Int(k))
				if err != nil || !ok || v != Int(vals[k]) {
					t.Fatalf("round %d step %d: d[%d] = %v %v %v, want %d", round, step, k, v, ok, err, vals[k])
				}
			}
		}
	}
}
