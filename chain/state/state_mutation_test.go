package state

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/big"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/types"
)

// commit writes s's changes into r and opens a fresh view over it.
func commit(t *testing.T, r memReader, s *StateDB) *StateDB {
	t.Helper()
	ws, err := s.Writes()
	if err != nil {
		t.Fatal(err)
	}
	r.apply(ws)
	return New(r)
}

// TestStorageQuotaAccounting follows an actor's storage count (keys plus
// values, §3.2) through writes, overwrites and deletes, committed and
// reloaded, up to and past the 1 MiB quota.
func TestStorageQuotaAccounting(t *testing.T) {
	a := types.Address{0xac}
	type step struct {
		ns         byte
		key, value string // value "" with del: delete
		del        bool
		size       int // value of size bytes instead of value
		wantUsed   uint64
		wantQuota  bool // ErrQuota expected
	}
	tests := []struct {
		name  string
		steps []step
	}{
		{"write then overwrite shorter", []step{
			{key: "k", value: "hello", wantUsed: 6},
			{key: "k", value: "hi", wantUsed: 3},
			{key: "other", value: "v", wantUsed: 9},
		}},
		{"delete returns the bytes and removes the count", []step{
			{key: "k", value: "hello", wantUsed: 6},
			{key: "k", del: true, wantUsed: 0},
			{key: "k", del: true, wantUsed: 0},
		}},
		{"namespaces are separate entries", []step{
			{ns: 0, key: "k", value: "ab", wantUsed: 3},
			{ns: 1, key: "k", value: "abc", wantUsed: 7},
			{ns: 0, key: "k", del: true, wantUsed: 4},
		}},
		{"exactly the quota fits, one more byte does not", []step{
			{key: "k", size: StorageQuota - 1, wantUsed: StorageQuota},
			{key: "x", value: "", wantUsed: StorageQuota, wantQuota: true},
			{key: "k", size: StorageQuota, wantUsed: StorageQuota, wantQuota: true},
			{key: "k", size: StorageQuota - 2, wantUsed: StorageQuota - 1},
		}},
		{"an empty value is stored and counts its key", []step{
			{key: "key", value: "", wantUsed: 3},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := memReader{}
			s := New(r)
			model := map[[2]string][]byte{}
			for i, st := range tc.steps {
				var v []byte
				if !st.del {
					v = []byte(st.value)
					if st.size > 0 {
						v = bytes.Repeat([]byte{7}, st.size)
					}
				}
				err := s.SetStorage(a, st.ns, []byte(st.key), v)
				var q *ErrQuota
				if st.wantQuota != errors.As(err, &q) || (!st.wantQuota && err != nil) {
					t.Fatalf("step %d: err %v, want quota error %v", i, err, st.wantQuota)
				}
				if st.wantQuota && (q.Used != st.wantUsed || q.Want <= StorageQuota) {
					t.Fatalf("step %d: quota error %+v", i, q)
				}
				if err == nil {
					if st.del {
						delete(model, [2]string{string(st.ns), st.key})
					} else {
						model[[2]string{string(st.ns), st.key}] = v
					}
				}
				s = commit(t, r, s) // the count survives a reload
				if got := s.StorageUsed(a); got != st.wantUsed {
					t.Fatalf("step %d: used %d, want %d", i, got, st.wantUsed)
				}
				meta, present := r[metaKey(a)]
				if present != (st.wantUsed != 0) {
					t.Fatalf("step %d: meta record present %v with %d bytes used", i, present, st.wantUsed)
				}
				if present && binary.BigEndian.Uint64(meta) != st.wantUsed {
					t.Fatalf("step %d: meta record %x", i, meta)
				}
				for nk, want := range model {
					if got := s.GetStorage(a, nk[0][0], []byte(nk[1])); !bytes.Equal(got, want) || got == nil {
						t.Fatalf("step %d: %q = %d bytes, want %d", i, nk[1], len(got), len(want))
					}
				}
			}
			if s.GetStorage(a, 9, []byte("never")) != nil {
				t.Fatal("absent key read as present")
			}
			if s.Err() != nil {
				t.Fatal(s.Err())
			}
		})
	}
}

// TestStorageUsedIgnoresBadMeta: a meta record that is not 8 bytes long
// counts as nothing used.
func TestStorageUsedIgnoresBadMeta(t *testing.T) {
	a := types.Address{1}
	for _, tc := range []struct {
		meta []byte
		want uint64
	}{
		{nil, 0},
		{[]byte{1, 2, 3}, 0},
		{[]byte{0, 0, 0, 0, 0, 0, 1, 0}, 256},
		{[]byte{0, 0, 0, 0, 0, 0, 1, 0, 0}, 0},
	} {
		r := memReader{}
		if tc.meta != nil {
			r[metaKey(a)] = tc.meta
		}
		if got := New(r).StorageUsed(a); got != tc.want {
			t.Errorf("meta %x: used %d, want %d", tc.meta, got, tc.want)
		}
	}
}

// TestSlotCodec: a storage entry holds its key and value, and a corrupt
// entry is a sticky read failure, not a value.
func TestSlotCodec(t *testing.T) {
	rec := EncodeSlot([]byte("key"), []byte{})
	k, v, err := DecodeSlot(rec)
	if err != nil || string(k) != "key" || v == nil || len(v) != 0 {
		t.Fatalf("decode %x: %q %v %v", rec, k, v, err)
	}
	if _, _, err := DecodeSlot([]byte{0x82, 0x41}); err == nil {
		t.Fatal("truncated entry decoded")
	}
	a := types.Address{2}
	r := memReader{ActorStorageKey(a, 0, []byte("key")): {0xff}}
	s := New(r)
	if got := s.GetStorage(a, 0, []byte("key")); got != nil || s.Err() == nil {
		t.Fatalf("corrupt entry read as %x, err %v", got, s.Err())
	}
}

// TestDedupWindow: a delivered message id is remembered for DedupWindow
// blocks (§12.1) and forgotten at the block that prunes it, with its
// expiry list; with or without a trailing partial entry in the list.
func TestDedupWindow(t *testing.T) {
	a, b := types.Address{0xa}, types.Address{0xb}
	id1, id2 := types.Hash{1}, types.Hash{2}
	exact := append(append(append(append([]byte{}, a[:]...), id1[:]...), b[:]...), id2[:]...)
	for _, tc := range []struct {
		name string
		list []byte
	}{
		{"whole entries", exact},
		{"a trailing partial entry", append(append([]byte{}, exact...), 0xee)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := memReader{}
			s := New(r)
			s.RecordDeliveries(5, nil) // nothing to record
			if ws, _ := s.Writes(); len(ws) != 0 {
				t.Fatalf("empty delivery list wrote %d records", len(ws))
			}
			s.RecordDeliveries(5, tc.list)
			s = commit(t, r, s)
			if !s.Delivered(a, id1) || !s.Delivered(b, id2) {
				t.Fatal("delivered ids not recorded")
			}
			if s.Delivered(a, id2) || s.Delivered(b, id1) {
				t.Fatal("an id recorded for the wrong actor")
			}
			if got := r[dedupKey(b, id2)]; binary.BigEndian.Uint64(got) != 5 {
				t.Fatalf("dedup entry %x, want height 5", got)
			}
			if len(r) != 3 {
				t.Fatalf("%d records, want 2 entries and the expiry list", len(r))
			}
			for _, h := range []uint64{0, 1, 5, DedupWindow, DedupWindow + 4, DedupWindow + 6} {
				s.PruneDedup(h)
				if !s.Delivered(a, id1) || !s.Delivered(b, id2) {
					t.Fatalf("pruned at height %d, recorded at 5", h)
				}
			}
			s.PruneDedup(DedupWindow + 5)
			s = commit(t, r, s)
			if s.Delivered(a, id1) || s.Delivered(b, id2) {
				t.Fatal("not pruned after the window")
			}
			if len(r) != 0 {
				t.Fatalf("%d records left", len(r))
			}
		})
	}

	// Height DedupWindow itself prunes nothing: its list would be of
	// height 0, which the genesis never records; a list there stays.
	r := memReader{}
	r[dedupExpiryKey(0)] = append([]byte{}, exact[:52]...)
	r[dedupKey(a, id1)] = []byte{0, 0, 0, 0, 0, 0, 0, 0}
	s := New(r)
	s.PruneDedup(DedupWindow)
	if !s.Delivered(a, id1) {
		t.Fatal("height DedupWindow pruned height 0")
	}
	s.PruneDedup(DedupWindow + 1) // list of height 1: absent
	if ws, _ := s.Writes(); len(ws) != 0 {
		t.Fatalf("pruning an absent list wrote %d records", len(ws))
	}
}

// TestActorCode: code is installed with the account's code hash, read
// back, reverted with a snapshot; an account without code is no actor.
func TestActorCode(t *testing.T) {
	a := types.Address{0xc0}
	r := memReader{}
	s := New(r)
	if s.IsActor(a) {
		t.Fatal("absent account is an actor")
	}
	if c, err := s.Code(a); c != nil || err != nil {
		t.Fatalf("code of an absent account: %v %v", c, err)
	}
	s.Mint(a, big.NewInt(1))
	if s.IsActor(a) {
		t.Fatal("funded external account is an actor")
	}
	if c, err := s.Code(a); c != nil || err != nil {
		t.Fatalf("code of an external account: %v %v", c, err)
	}
	snap := s.Snapshot()
	code := &ActorCode{CodeHash: types.Hash{9}, Source: []byte("def f(): pass\n")}
	if err := s.SetCode(a, code); err != nil {
		t.Fatal(err)
	}
	if !s.IsActor(a) {
		t.Fatal("not an actor after SetCode")
	}
	s.RevertToSnapshot(snap)
	if s.IsActor(a) || s.Get(CodeKey(a)) != nil {
		t.Fatal("SetCode not reverted")
	}
	if err := s.SetCode(a, code); err != nil {
		t.Fatal(err)
	}
	s = commit(t, r, s)
	got, err := s.Code(a)
	if err != nil || got.CodeHash != code.CodeHash || !bytes.Equal(got.Source, code.Source) {
		t.Fatalf("code read back %+v, %v", got, err)
	}
	if acc := s.Account(a); acc.CodeHash == nil || *acc.CodeHash != code.CodeHash || acc.Balance.Int64() != 1 {
		t.Fatalf("account %+v", acc)
	}
	if _, err := DecodeCode(nil); err == nil {
		t.Fatal("missing code record decoded")
	}
	if _, err := DecodeCode([]byte{0x01}); err == nil {
		t.Fatal("bad code record decoded")
	}
	// A code hash whose record is missing is an error, not empty code.
	delete(r, CodeKey(a))
	if _, err := New(r).Code(a); err == nil {
		t.Fatal("missing code record of an actor not reported")
	}
}

// TestHasBalance compares at the edges, for present and absent accounts.
func TestHasBalance(t *testing.T) {
	r := memReader{}
	a := types.Address{1}
	s := New(r)
	s.Mint(a, big.NewInt(10))
	s = commit(t, r, s)
	for _, tc := range []struct {
		addr types.Address
		v    int64
		want bool
	}{
		{a, 9, true}, {a, 10, true}, {a, 11, false}, {a, 0, true},
		{types.Address{2}, 0, true}, {types.Address{2}, 1, false}, {types.Address{2}, -1, true},
	} {
		if got := s.HasBalance(tc.addr, big.NewInt(tc.v)); got != tc.want {
			t.Errorf("HasBalance(%x, %d) = %v", tc.addr[0], tc.v, got)
		}
	}
	if err := s.SubBalance(a, big.NewInt(10)); err != nil {
		t.Fatalf("debit of the whole balance: %v", err)
	}
	if s.Balance(a).Sign() != 0 {
		t.Fatal("balance left after debiting all")
	}
}

// TestSetNonceRevertAndDirty: a nonce change of a loaded account is
// written, reverts to the old value and leaves no write once reverted; a
// nonce set twice reverts through both entries.
func TestSetNonceRevertAndDirty(t *testing.T) {
	r := memReader{}
	a := types.Address{1}
	s := New(r)
	s.Mint(a, big.NewInt(5))
	s.SetNonce(a, 3)
	s = commit(t, r, s)
	snap := s.Snapshot()
	s.SetNonce(a, 1<<40+7)
	s.SetNonce(a, 8)
	if s.Nonce(a) != 8 {
		t.Fatalf("nonce %d", s.Nonce(a))
	}
	mid := s.Snapshot()
	s.AddBalance(a, big.NewInt(1))
	s.RevertToSnapshot(mid)
	if s.Nonce(a) != 8 || s.Balance(a).Int64() != 5 {
		t.Fatalf("partial revert: nonce %d balance %s", s.Nonce(a), s.Balance(a))
	}
	ws, _ := s.Writes()
	if len(ws) != 1 || ws[0].Key != AccountKey(a) {
		t.Fatalf("writes after a partial revert: %+v", ws)
	}
	r.apply(ws)
	s = New(r)
	if s.Nonce(a) != 8 {
		t.Fatalf("committed nonce %d", s.Nonce(a))
	}
	snap = s.Snapshot()
	s.SetNonce(a, 1<<40+7)
	s.RevertToSnapshot(snap)
	if s.Nonce(a) != 8 {
		t.Fatalf("reverted nonce %d, want 8", s.Nonce(a))
	}
}

// TestSupplyWrites: the supply record is written only when it changed,
// and an emptied supply is written as the empty byte string.
func TestSupplyWrites(t *testing.T) {
	r := memReader{}
	a := types.Address{1}
	s := New(r)
	if s.Supply().Sign() != 0 {
		t.Fatal("supply of an empty state")
	}
	if ws, _ := s.Writes(); len(ws) != 0 {
		t.Fatalf("reading the supply wrote %d records", len(ws))
	}
	s.Mint(a, big.NewInt(300))
	s = commit(t, r, s)
	if got := r[supplyKey]; !bytes.Equal(got, []byte{1, 44}) {
		t.Fatalf("supply record %x", got)
	}
	s.Burn(big.NewInt(0))
	if ws, _ := s.Writes(); len(ws) != 0 {
		t.Fatalf("burning nothing wrote %d records", len(ws))
	}
	s.SubBalance(a, big.NewInt(300))
	s.Burn(big.NewInt(300))
	ws, _ := s.Writes()
	if len(ws) != 2 || ws[1].Key != supplyKey || ws[1].Value == nil || len(ws[1].Value) != 0 {
		t.Fatalf("writes %+v", ws)
	}
}

// TestSetKeepsEmptyValues: Set with an empty (non-nil) value stores an
// empty record, not a delete; a reverted Set restores the old record.
func TestSetKeepsEmptyValues(t *testing.T) {
	r := memReader{}
	k := CodeKey(types.Address{5})
	s := New(r)
	s.Set(k, []byte{})
	ws, _ := s.Writes()
	if len(ws) != 1 || ws[0].Value == nil {
		t.Fatalf("empty value written as %+v", ws)
	}
	r[k] = []byte("old")
	s = New(r)
	snap := s.Snapshot()
	s.Set(k, []byte("new"))
	s.Set(k, nil)
	if s.Get(k) != nil {
		t.Fatal("deleted record still read")
	}
	s.RevertToSnapshot(snap)
	if string(s.Get(k)) != "old" {
		t.Fatalf("after revert %q", s.Get(k))
	}
	if ws, _ := s.Writes(); len(ws) != 0 {
		t.Fatalf("reverted Set still written: %+v", ws)
	}
}

// TestReadFailuresAreSticky: every read path that fails records the first
// error, reads as absent, and refuses Writes.
func TestReadFailuresAreSticky(t *testing.T) {
	for _, tc := range []struct {
		name string
		read func(s *StateDB)
	}{
		{"record", func(s *StateDB) {
			if s.Get(CodeKey(types.Address{1})) != nil {
				t.Error("failed read returned a record")
			}
		}},
		{"supply", func(s *StateDB) {
			if s.Supply().Sign() != 0 {
				t.Error("failed read returned a supply")
			}
		}},
		{"account", func(s *StateDB) {
			if acc := s.Account(types.Address{1}); acc.Balance.Sign() != 0 || acc.Nonce != 0 {
				t.Errorf("failed read returned %+v", acc)
			}
		}},
		{"storage", func(s *StateDB) {
			if s.GetStorage(types.Address{1}, 0, []byte("k")) != nil {
				t.Error("failed read returned a value")
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := New(failReader{})
			tc.read(s)
			if s.Err() == nil {
				t.Fatal("read error lost")
			}
			if _, err := s.Writes(); err == nil {
				t.Fatal("writes allowed after a failed read")
			}
		})
	}
}
