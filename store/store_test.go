package store

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand"
	"sort"
	"testing"

	"pgregory.net/rapid"

	"github.com/cowboy-chain/cowboy/store/verifier"
)

func k(i int) Key { return MakeKey(KindAccount, [20]byte{byte(i), byte(i >> 8)}, 0, [32]byte{}) }

// model is the plain map the store must behave like.
type model map[Key][]byte

// rootOf builds a fresh tree from the model's contents in a random order:
// the root must not depend on it.
func rootOf(m model, rng *rand.Rand) [32]byte {
	keys := make([]Key, 0, len(m))
	for key := range m {
		keys = append(keys, key)
	}
	sort.Slice(keys, func(i, j int) bool { return bytes.Compare(keys[i][:], keys[j][:]) < 0 })
	rng.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
	al := &alloc{a: newArena()}
	var t ref
	for _, key := range keys {
		t = al.put(t, 0, verifier.Path(key[:]), hashValue(m[key]))
	}
	return al.a.hash(t)
}

func TestStoreAgainstModel(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		dir := t.TempDir()
		s, err := Open(dir, Options{NoSync: true})
		if err != nil {
			rt.Fatal(err)
		}
		defer func() { s.Close() }()
		m := model{}
		rng := rand.New(rand.NewSource(rapid.Int64().Draw(rt, "seed")))
		blocks := rapid.IntRange(1, 12).Draw(rt, "blocks")
		for h := 0; h < blocks; h++ {
			var ws []Write
			for i, n := 0, rapid.IntRange(0, 20).Draw(rt, "writes"); i < n; i++ {
				key := k(rapid.IntRange(0, 30).Draw(rt, "key"))
				var v []byte
				if !rapid.Bool().Draw(rt, "delete") {
					v = []byte(fmt.Sprintf("v%d-%d", h, i))
				}
				ws = append(ws, Write{Key: key, Value: v})
				if v == nil {
					delete(m, key)
				} else {
					m[key] = v
				}
			}
			roots, err := s.Commit(uint64(h), &Batch{State: ws})
			if err != nil {
				rt.Fatal(err)
			}
			if want := rootOf(m, rng); roots.State != want {
				rt.Fatalf("height %d: root %x, rebuild from the model gives %x", h, roots.State, want)
			}
			if rapid.Bool().Draw(rt, "reopen") {
				s.Close()
				if s, err = Open(dir, Options{NoSync: true}); err != nil {
					rt.Fatal(err)
				}
				if _, r2, _ := s.LastCommitted(); r2 != roots {
					rt.Fatal("roots changed across reopen")
				}
			}
			// Every key of the universe: value and proof agree with the model.
			for i := 0; i <= 30; i++ {
				key := k(i)
				got, err := s.Get(StateDB, key)
				want, present := m[key]
				if present != (err == nil) || !bytes.Equal(got, want) {
					rt.Fatalf("get %d: %q %v, model %q", i, got, err, want)
				}
				p, err := s.Prove(StateDB, key, uint64(h))
				if err != nil {
					rt.Fatal(err)
				}
				if err := verifier.Verify(roots.State, key[:], want, p); err != nil {
					rt.Fatalf("proof of key %d (present %v): %v", i, present, err)
				}
			}
		}
	})
}

func hashValue(v []byte) [32]byte { return verifier.LeafValueHash(v) }

func TestOrderAndBatchingIndependence(t *testing.T) {
	var writes []Write
	for i := 0; i < 50; i++ {
		writes = append(writes, Write{Key: k(i), Value: []byte{byte(i)}})
	}
	// One block with everything, in two orders, and the same content
	// reached over three blocks with a detour (a key written then deleted).
	a, _ := Open(t.TempDir(), Options{NoSync: true})
	defer a.Close()
	ra, _ := a.Commit(0, &Batch{State: writes})
	rev := append([]Write(nil), writes...)
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	b, _ := Open(t.TempDir(), Options{NoSync: true})
	defer b.Close()
	rb, _ := b.Commit(0, &Batch{State: rev})
	c, _ := Open(t.TempDir(), Options{NoSync: true})
	defer c.Close()
	c.Commit(0, &Batch{State: writes[:20]})
	c.Commit(1, &Batch{State: append(writes[20:], Write{Key: k(99), Value: []byte("x")})})
	rc, _ := c.Commit(2, &Batch{State: []Write{{Key: k(99)}}})
	if ra.State != rb.State || ra.State != rc.State {
		t.Fatalf("roots differ: %x %x %x", ra.State, rb.State, rc.State)
	}
	// Last write of a key in one batch wins.
	d, _ := Open(t.TempDir(), Options{NoSync: true})
	defer d.Close()
	rd, _ := d.Commit(0, &Batch{State: append(append([]Write(nil), writes...), Write{Key: k(3), Value: []byte("z")}, Write{Key: k(3), Value: []byte{3}})})
	if rd.State != ra.State {
		t.Fatal("duplicate keys in a batch: the last write did not win")
	}
}

func TestProofTampering(t *testing.T) {
	s, _ := Open(t.TempDir(), Options{NoSync: true})
	defer s.Close()
	var ws []Write
	for i := 0; i < 100; i++ {
		ws = append(ws, Write{Key: k(i), Value: []byte{byte(i), 1}})
	}
	roots, _ := s.Commit(0, &Batch{State: ws})
	key := k(7)
	p, _ := s.Prove(StateDB, key, 0)
	if err := verifier.Verify(roots.State, key[:], []byte{7, 1}, p); err != nil {
		t.Fatal(err)
	}
	flip := func(b [32]byte) [32]byte { b[5] ^= 1; return b }
	other := k(8)
	tests := []struct {
		name  string
		root  [32]byte
		key   []byte
		value []byte
		mod   func(*verifier.Proof)
	}{
		{"changed value", roots.State, key[:], []byte{7, 2}, nil},
		{"claimed absent", roots.State, key[:], nil, nil},
		{"other key", roots.State, other[:], []byte{7, 1}, nil},
		{"changed root", flip(roots.State), key[:], []byte{7, 1}, nil},
		{"changed sibling", roots.State, key[:], []byte{7, 1}, func(p *verifier.Proof) { p.Siblings[0] = flip(p.Siblings[0]) }},
		{"dropped sibling", roots.State, key[:], []byte{7, 1}, func(p *verifier.Proof) { p.Siblings = p.Siblings[1:] }},
	}
	for _, tt := range tests {
		q, _ := verifier.DecodeProof(mustMarshal(t, p))
		if tt.mod != nil {
			tt.mod(q)
		}
		if err := verifier.Verify(tt.root, tt.key, tt.value, q); !errors.Is(err, verifier.ErrMismatch) {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
	// Every byte of the encoded proof matters.
	enc := mustMarshal(t, p)
	for i := range enc {
		bad := bytes.Clone(enc)
		bad[i] ^= 0x40
		q, err := verifier.DecodeProof(bad)
		if err == nil && verifier.Verify(roots.State, key[:], []byte{7, 1}, q) == nil {
			t.Fatalf("byte %d changed and the proof still verifies", i)
		}
	}
	// Non-inclusion of an absent key proves, and tampering breaks it too.
	absent := k(1000)
	pa, _ := s.Prove(StateDB, absent, 0)
	if err := verifier.Verify(roots.State, absent[:], nil, pa); err != nil {
		t.Fatal(err)
	}
	if err := verifier.Verify(roots.State, absent[:], []byte{1}, pa); err == nil {
		t.Fatal("non-inclusion proof accepted as inclusion")
	}
}

func mustMarshal(t *testing.T, p *verifier.Proof) []byte {
	b, err := p.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestCommitHeightsAndRaw(t *testing.T) {
	s, _ := Open(t.TempDir(), Options{NoSync: true})
	defer s.Close()
	if _, err := s.Commit(1, &Batch{}); err == nil {
		t.Fatal("first commit at height 1 accepted")
	}
	if _, err := s.Commit(0, &Batch{Raw: []RawWrite{{Key: []byte("x"), Value: []byte("y")}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Commit(0, &Batch{}); err == nil {
		t.Fatal("height 0 committed twice")
	}
	if v, err := s.GetRaw([]byte("x")); err != nil || string(v) != "y" {
		t.Fatalf("raw %q %v", v, err)
	}
	// A raw key can never collide with an authenticated entry.
	if _, err := s.Get(StateDB, k(1)); !errors.Is(err, ErrNotFound) {
		t.Fatal(err)
	}
	// finish failing writes nothing.
	_, err := s.CommitWith(1, &Batch{State: []Write{{Key: k(1), Value: []byte("v")}}}, func(Roots) ([]RawWrite, error) {
		return nil, errors.New("encode failed")
	})
	if err == nil {
		t.Fatal("failed finish committed")
	}
	if h, _, _ := s.LastCommitted(); h != 0 {
		t.Fatalf("height moved to %d", h)
	}
	if _, err := s.Get(StateDB, k(1)); !errors.Is(err, ErrNotFound) {
		t.Fatal("write of a failed commit is visible")
	}
}

func FuzzDecodeProof(f *testing.F) {
	s, _ := Open(f.TempDir(), Options{NoSync: true})
	var ws []Write
	for i := 0; i < 20; i++ {
		ws = append(ws, Write{Key: k(i), Value: []byte{byte(i)}})
	}
	roots, _ := s.Commit(0, &Batch{State: ws})
	key := k(3)
	p, _ := s.Prove(StateDB, key, 0)
	enc, _ := p.MarshalBinary()
	s.Close()
	f.Add(enc)
	f.Fuzz(func(t *testing.T, b []byte) {
		q, err := verifier.DecodeProof(b)
		if err != nil {
			return
		}
		again, err := q.MarshalBinary()
		if err != nil || !bytes.Equal(again, b) {
			t.Fatalf("decode/encode not canonical")
		}
		if verifier.Verify(roots.State, key[:], []byte{3}, q) == nil && !bytes.Equal(b, enc) {
			t.Fatalf("a different proof verifies: %x", b)
		}
	})
}

// TestCompareKeys: compareKeys orders keys as bytes.Compare does, also
// when they differ only in the last bytes, after the 8-byte words.
func TestCompareKeys(t *testing.T) {
	rng := rand.New(rand.NewSource(8))
	for i := 0; i < 20000; i++ {
		var a, b Key
		rng.Read(a[:])
		b = a
		switch i % 3 {
		case 0:
			rng.Read(b[:])
		case 1:
			b[rng.Intn(len(b))] = byte(rng.Intn(256))
		}
		if got, want := compareKeys(&a, &b), bytes.Compare(a[:], b[:]); got != want {
			t.Fatalf("compareKeys(%x, %x) = %d, bytes.Compare %d", a, b, got, want)
		}
	}
}
