package store

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// scanUniverse: storage-like keys of three addresses, two kinds and two
// namespaces, with slots that share prefixes and end in 0xff bytes (the
// edges of a prefix's range).
func scanUniverse() []Key {
	var keys []Key
	for _, kind := range []byte{0x03, 0x04} {
		for _, addr := range []byte{0x01, 0x02, 0xff} {
			for _, ns := range []byte{0, 1} {
				for _, slot := range [][32]byte{{}, {0x01}, {0xff, 0xff}, {0x01, 0xff}, bytes32(0xff)} {
					keys = append(keys, MakeKey(kind, [20]byte{addr}, ns, slot))
				}
			}
		}
	}
	return keys
}

func bytes32(b byte) (s [32]byte) {
	for i := range s {
		s[i] = b
	}
	return s
}

// TestScanAgainstModel: after random commits, reverts and reopens, paging
// through every prefix with Scan lists exactly the model's records under
// it, in key order, and tx_index records never show in a state_db scan.
func TestScanAgainstModel(t *testing.T) {
	universe := scanUniverse()
	rapid.Check(t, func(rt *rapid.T) {
		dir := t.TempDir()
		s, err := Open(dir, Options{NoSync: true, Retain: 4})
		if err != nil {
			rt.Fatal(err)
		}
		defer func() { s.Close() }()
		var snaps []model
		cur := model{}
		blocks := rapid.IntRange(1, 10).Draw(rt, "blocks")
		for h := 0; h < blocks; h++ {
			var b Batch
			for i, n := 0, rapid.IntRange(0, 12).Draw(rt, "writes"); i < n; i++ {
				key := universe[rapid.IntRange(0, len(universe)-1).Draw(rt, "key")]
				var v []byte
				if rapid.IntRange(0, 3).Draw(rt, "op") > 0 {
					v = []byte(fmt.Sprintf("h%d-%d", h, i))
					cur[key] = v
				} else {
					delete(cur, key)
				}
				b.State = append(b.State, Write{Key: key, Value: v})
			}
			b.TxIndex = []Write{{Key: MakeKey(KindTxIndex, [20]byte{}, 0, [32]byte{byte(h)}), Value: []byte{1}}}
			if _, err := s.Commit(uint64(h), &b); err != nil {
				rt.Fatal(err)
			}
			snaps = append(snaps, clone(cur))
		}
		head := len(snaps) - 1
		if rapid.Bool().Draw(rt, "revert") {
			target := rapid.IntRange(max(0, head-3), head).Draw(rt, "target")
			if _, err := s.RevertTo(uint64(target), nil); err != nil {
				rt.Fatal(err)
			}
			cur = snaps[target]
		}
		if rapid.Bool().Draw(rt, "reopen") {
			s.Close()
			if s, err = Open(dir, Options{NoSync: true, Retain: 4}); err != nil {
				rt.Fatal(err)
			}
		}
		page := rapid.IntRange(1, 7).Draw(rt, "page")
		for _, plen := range []int{0, 1, 21, 22, 23} {
			for _, key := range universe {
				prefix := key[:plen]
				var want []Key
				for k := range cur {
					if bytes.HasPrefix(k[:], prefix) {
						want = append(want, k)
					}
				}
				slices.SortFunc(want, func(a, b Key) int { return bytes.Compare(a[:], b[:]) })
				var got []Key
				var after *Key
				for pages := 0; ; pages++ {
					if pages > len(universe) { // each page lists a record
						rt.Fatalf("prefix %x: paging does not end", prefix)
					}
					es, more, err := s.Scan(StateDB, prefix, after, page)
					if err != nil {
						rt.Fatal(err)
					}
					for _, e := range es {
						if !bytes.Equal(e.Value, cur[e.Key]) {
							rt.Fatalf("value of %x: %q, want %q", e.Key, e.Value, cur[e.Key])
						}
						got = append(got, e.Key)
					}
					if !more {
						break
					}
					if len(es) != page {
						rt.Fatalf("short page of %d with more to come", len(es))
					}
					after = &es[len(es)-1].Key
				}
				if !slices.Equal(got, want) {
					rt.Fatalf("prefix %x: scanned %d keys, want %d", prefix, len(got), len(want))
				}
			}
		}
	})
}

func clone(m model) model {
	out := model{}
	for k, v := range m {
		out[k] = v
	}
	return out
}

// TestScanRefuses: a prefix longer than a key is an error (a whole key is
// not), and a limit of zero lists nothing.
func TestScanRefuses(t *testing.T) {
	s, err := Open(t.TempDir(), Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Commit(0, &Batch{State: []Write{{Key: k(1), Value: []byte{1}}}}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Scan(StateDB, make([]byte, 55), nil, 10); err == nil {
		t.Error("a 55-byte prefix: no error")
	}
	// A whole key is the longest prefix: it lists that key's record.
	one := k(1)
	if es, more, err := s.Scan(StateDB, one[:], nil, 10); err != nil || len(es) != 1 || es[0].Key != k(1) || more {
		t.Fatalf("a whole key as the prefix: %v %v %v", es, more, err)
	}
	for _, limit := range []int{0, -1} {
		if es, more, err := s.Scan(StateDB, nil, nil, limit); err != nil || len(es) != 0 || more {
			t.Fatalf("limit %d: %v %v %v", limit, es, more, err)
		}
	}
	if es, more, err := s.Scan(StateDB, nil, nil, 1); err != nil || len(es) != 1 || more {
		t.Fatalf("limit 1: %v %v %v", es, more, err)
	}
}

// TestPrefixEnd: the least key above a prefix's range skips trailing 0xff
// bytes.
func TestPrefixEnd(t *testing.T) {
	for _, c := range []struct{ in, want []byte }{
		{[]byte{'a', 0}, []byte{'a', 1}},
		{[]byte{'a', 2, 0x10}, []byte{'a', 2, 0x11}},
		{[]byte{'a', 0, 0xff}, []byte{'a', 1}},
		{[]byte{'a', 1, 0x05, 0xff, 0xff}, []byte{'a', 1, 0x06}},
		{[]byte{'a', 1, 0xfe}, []byte{'a', 1, 0xff}},
	} {
		in := bytes.Clone(c.in)
		if got := prefixEnd(in); !bytes.Equal(got, c.want) || !bytes.Equal(in, c.in) {
			t.Errorf("prefixEnd(%x) = %x (input now %x), want %x", c.in, got, in, c.want)
		}
	}
}
