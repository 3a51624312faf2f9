package store

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"testing"

	"github.com/cowboy-chain/cowboy/store/verifier"
)

var updateVectors = flag.Bool("update", false, "rewrite verifier/testdata/vectors.json from the store's proofs")

// vectorsFile holds proofs made by the store, which store/verifier's tests
// check standalone. This test makes them again: the store must keep
// producing exactly these bytes (the proof format and the tree are
// consensus), or the file is rewritten on purpose with -update.
const vectorsFile = "verifier/testdata/vectors.json"

// vector is one statement "under root, key holds value" with its proof;
// Value null means the key is absent. Every field is hex.
type vector struct {
	Name  string  `json:"name"`
	Root  string  `json:"root"`
	Key   string  `json:"key"`
	Value *string `json:"value"`
	Proof string  `json:"proof"`
}

func TestVerifierVectors(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	// Height 0: 64 accounts and an empty value; height 1 overwrites
	// account 5 and deletes account 6, and writes a receipt.
	var ws []Write
	for i := 0; i < 64; i++ {
		ws = append(ws, Write{Key: k(i), Value: []byte(fmt.Sprintf("account %d at height 0", i))})
	}
	empty := MakeKey(KindSystem, [20]byte{}, 0, [32]byte{'e'})
	ws = append(ws, Write{Key: empty, Value: []byte{}})
	r0, err := s.Commit(0, &Batch{State: ws})
	if err != nil {
		t.Fatal(err)
	}
	rcpt := MakeKey(KindReceipt, [20]byte{}, 0, [32]byte{0xab})
	r1, err := s.Commit(1, &Batch{
		State:      []Write{{Key: k(5), Value: []byte("account 5 at height 1")}, {Key: k(6)}},
		TxReceipts: []Write{{Key: rcpt, Value: []byte("receipt")}},
	})
	if err != nil {
		t.Fatal(err)
	}
	// Reopen, so height 0 is rebuilt from height 1's undo log.
	s.Close()
	if s, err = Open(dir, Options{NoSync: true}); err != nil {
		t.Fatal(err)
	}
	defer s.Close()

	// The first absent keys whose path ends at another leaf, and at an
	// empty subtree, in a fixed search order.
	var absentLeaf, absentEmpty *Key
	for i := 1000; absentLeaf == nil || absentEmpty == nil; i++ {
		key := k(i)
		p, err := s.Prove(StateDB, key, 1)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case p.HasLeaf && absentLeaf == nil:
			absentLeaf = &key
		case !p.HasLeaf && absentEmpty == nil:
			absentEmpty = &key
		}
	}
	cases := []struct {
		name   string
		db     DB
		key    Key
		height uint64
		root   [32]byte
	}{
		{"inclusion", StateDB, k(7), 1, r1.State},
		{"inclusion of an overwritten value at an older height", StateDB, k(5), 0, r0.State},
		{"inclusion of the new value", StateDB, k(5), 1, r1.State},
		{"inclusion of an empty value", StateDB, empty, 1, r1.State},
		{"non-inclusion of a deleted key", StateDB, k(6), 1, r1.State},
		{"non-inclusion ending at another key's leaf", StateDB, *absentLeaf, 1, r1.State},
		{"non-inclusion ending at an empty subtree", StateDB, *absentEmpty, 1, r1.State},
		{"inclusion in a one-key tree (tx_receipts)", TxReceiptsDB, rcpt, 1, r1.TxReceipts},
		{"non-inclusion in a one-key tree (tx_receipts)", TxReceiptsDB, k(1), 1, r1.TxReceipts},
		{"non-inclusion in an empty tree (tx_index)", TxIndexDB, k(1), 1, r1.TxIndex},
	}
	var vs []vector
	for _, c := range cases {
		p, v, err := s.ProveValue(c.db, c.key, c.height)
		if err != nil {
			t.Fatal(err)
		}
		if err := verifier.Verify(c.root, c.key[:], v, p); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		enc, err := p.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		vec := vector{Name: c.name, Root: hex.EncodeToString(c.root[:]), Key: hex.EncodeToString(c.key[:]), Proof: hex.EncodeToString(enc)}
		if v != nil {
			h := hex.EncodeToString(v)
			vec.Value = &h
		}
		vs = append(vs, vec)
	}
	got, err := json.MarshalIndent(vs, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	if *updateVectors {
		if err := os.WriteFile(vectorsFile, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(vectorsFile)
	if err != nil {
		t.Fatalf("%v (go test ./store/ -run TestVerifierVectors -update writes it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("the store's proofs differ from %s; if the format changed on purpose, rerun with -update", vectorsFile)
	}
}
