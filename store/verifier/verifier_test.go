package verifier_test

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/cowboy-chain/cowboy/store/verifier"
)

// statement is "under root, key holds value" (value nil: key is absent)
// with the proof that shows it.
type statement struct {
	name  string
	root  [32]byte
	key   []byte
	value []byte
	proof *verifier.Proof
}

// keyWithBits returns the first key "k<i>" whose path starts with bits,
// so the hand-built trees below have a known shape.
func keyWithBits(t *testing.T, bits ...byte) []byte {
	t.Helper()
	for i := 0; i < 1<<16; i++ {
		key := []byte(fmt.Sprintf("k%d", i))
		p := verifier.Path(key)
		ok := true
		for d, b := range bits {
			ok = ok && verifier.Bit(p, d) == b
		}
		if ok {
			return key
		}
	}
	t.Fatalf("no key with path prefix %v", bits)
	return nil
}

func leaf(key, value []byte) [32]byte {
	return verifier.LeafHash(verifier.Path(key), verifier.LeafValueHash(value))
}

func leafTerminal(key, value []byte, siblings ...[32]byte) *verifier.Proof {
	return &verifier.Proof{HasLeaf: true, LeafPath: verifier.Path(key), LeafValueHash: verifier.LeafValueHash(value), Siblings: siblings}
}

// handBuilt are trees computed from the package comment's definitions
// alone, not by the store: empty = 32 zero bytes, a lone key is its leaf,
// and two keys sharing a path prefix hang under single-child internal
// nodes down to the bit where they differ.
func handBuilt(t *testing.T) []statement {
	var zero [32]byte
	a, va := keyWithBits(t, 0, 0, 0), []byte("value a")
	b, vb := keyWithBits(t, 0, 0, 1), []byte("value b")
	c := keyWithBits(t, 1)    // right of the root: empty
	d := keyWithBits(t, 0, 1) // right at depth 1: empty
	var e []byte              // an absent key whose path reaches a's leaf
	for i := 0; e == nil && i < 1<<10; i++ {
		key := []byte(fmt.Sprintf("e%d", i))
		p := verifier.Path(key)
		if verifier.Bit(p, 0) == 0 && verifier.Bit(p, 1) == 0 && verifier.Bit(p, 2) == 0 {
			e = key
		}
	}
	if e == nil {
		t.Fatal("no key e")
	}
	la, lb := leaf(a, va), leaf(b, vb)
	ab := verifier.NodeHash(la, lb)                              // depth 2: a left, b right
	root := verifier.NodeHash(verifier.NodeHash(ab, zero), zero) // depths 1 and 0: left children only
	oneRoot := leaf(a, va)
	return []statement{
		{"empty tree: any key is absent", zero, a, nil, &verifier.Proof{}},
		{"one key: inclusion", oneRoot, a, va, leafTerminal(a, va)},
		{"one key: another key is absent", oneRoot, b, nil, leafTerminal(a, va)},
		{"two keys: inclusion of a", root, a, va, leafTerminal(a, va, zero, zero, lb)},
		{"two keys: inclusion of b", root, b, vb, leafTerminal(b, vb, zero, zero, la)},
		{"two keys: absent under the root's empty right", root, c, nil, &verifier.Proof{Siblings: [][32]byte{verifier.NodeHash(ab, zero)}}},
		{"two keys: absent under an empty subtree at depth 1", root, d, nil, &verifier.Proof{Siblings: [][32]byte{zero, ab}}},
		{"two keys: absent, the path ends at a's leaf", root, e, nil, leafTerminal(a, va, zero, zero, lb)},
	}
}

// vector is one line of testdata/vectors.json, written by the store's
// TestVerifierVectors (go test ./store/ -run TestVerifierVectors -update).
type vector struct {
	Name  string  `json:"name"`
	Root  string  `json:"root"`
	Key   string  `json:"key"`
	Value *string `json:"value"`
	Proof string  `json:"proof"`
}

func fromStore(t *testing.T) []statement {
	raw, err := os.ReadFile("testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var vs []vector
	if err := json.Unmarshal(raw, &vs); err != nil {
		t.Fatal(err)
	}
	unhex := func(s string) []byte {
		b, err := hex.DecodeString(s)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	var out []statement
	for _, v := range vs {
		st := statement{name: "store: " + v.Name, key: unhex(v.Key)}
		copy(st.root[:], unhex(v.Root))
		if v.Value != nil {
			st.value = append([]byte{}, unhex(*v.Value)...)
		}
		if st.proof, err = verifier.DecodeProof(unhex(v.Proof)); err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		out = append(out, st)
	}
	if len(out) < 8 {
		t.Fatalf("testdata/vectors.json has %d vectors", len(out))
	}
	return out
}

func allStatements(t *testing.T) []statement {
	return append(handBuilt(t), fromStore(t)...)
}

func TestValidProofs(t *testing.T) {
	for _, st := range allStatements(t) {
		if err := verifier.Verify(st.root, st.key, st.value, st.proof); err != nil {
			t.Errorf("%s: %v", st.name, err)
		}
		enc, err := st.proof.MarshalBinary()
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		back, err := verifier.DecodeProof(enc)
		if err != nil {
			t.Fatalf("%s: decode: %v", st.name, err)
		}
		again, _ := back.MarshalBinary()
		if !bytes.Equal(enc, again) {
			t.Errorf("%s: encoding does not round-trip", st.name)
		}
	}
}

// mustFail asserts that a tampered statement does not verify.
func mustFail(t *testing.T, what string, root [32]byte, key, value []byte, p *verifier.Proof) {
	t.Helper()
	if err := verifier.Verify(root, key, value, p); err == nil {
		t.Fatalf("%s: still verifies", what)
	} else if !errors.Is(err, verifier.ErrMismatch) && !errors.Is(err, verifier.ErrMalformed) {
		t.Fatalf("%s: unexpected error %v", what, err)
	}
}

// TestTamperedRootValueProof changes every byte of the root, the value and
// the encoded proof, one at a time, and with several masks: none of those
// statements verifies.
func TestTamperedRootValueProof(t *testing.T) {
	for _, st := range allStatements(t) {
		t.Run(st.name, func(t *testing.T) {
			for _, mask := range []byte{0x01, 0x80, 0xff} {
				for i := range st.root {
					root := st.root
					root[i] ^= mask
					mustFail(t, fmt.Sprintf("root byte %d ^ %#x", i, mask), root, st.key, st.value, st.proof)
				}
				for i := range st.value {
					v := bytes.Clone(st.value)
					v[i] ^= mask
					mustFail(t, fmt.Sprintf("value byte %d ^ %#x", i, mask), st.root, st.key, v, st.proof)
				}
				enc, _ := st.proof.MarshalBinary()
				for i := range enc {
					bad := bytes.Clone(enc)
					bad[i] ^= mask
					q, err := verifier.DecodeProof(bad)
					if err != nil {
						if !errors.Is(err, verifier.ErrMalformed) {
							t.Fatalf("proof byte %d: %v", i, err)
						}
						continue
					}
					mustFail(t, fmt.Sprintf("proof byte %d ^ %#x", i, mask), st.root, st.key, st.value, q)
				}
			}
			// Longer, shorter and other values; a present key claimed
			// absent, an absent key claimed present.
			if st.value != nil {
				mustFail(t, "value extended", st.root, st.key, append(bytes.Clone(st.value), 0), st.proof)
				mustFail(t, "claimed absent", st.root, st.key, nil, st.proof)
				if len(st.value) > 0 {
					mustFail(t, "value shortened", st.root, st.key, st.value[:len(st.value)-1], st.proof)
				}
			} else {
				mustFail(t, "claimed present, empty", st.root, st.key, []byte{}, st.proof)
				mustFail(t, "claimed present", st.root, st.key, []byte("x"), st.proof)
			}
			// A proof with a byte added or removed does not decode.
			enc, _ := st.proof.MarshalBinary()
			if _, err := verifier.DecodeProof(append(bytes.Clone(enc), 0)); err == nil {
				t.Fatal("a proof with a trailing byte decodes")
			}
			if _, err := verifier.DecodeProof(enc[:len(enc)-1]); err == nil {
				t.Fatal("a truncated proof decodes")
			}
		})
	}
}

// TestTamperedKey changes every byte of the key. An inclusion proof then
// always fails. A non-inclusion proof shows that every key whose path
// follows the proof's n siblings, and is not the terminal leaf's, is
// absent; a changed key still verifies exactly when it is such a key (a
// true statement), and fails otherwise.
func TestTamperedKey(t *testing.T) {
	for _, st := range allStatements(t) {
		orig := verifier.Path(st.key)
		for _, mask := range []byte{0x01, 0x80, 0xff} {
			for i := range st.key {
				key := bytes.Clone(st.key)
				key[i] ^= mask
				err := verifier.Verify(st.root, key, st.value, st.proof)
				if st.value != nil {
					if err == nil {
						t.Fatalf("%s: key byte %d ^ %#x: still verifies", st.name, i, mask)
					}
					continue
				}
				p := verifier.Path(key)
				alsoAbsent := !st.proof.HasLeaf || p != st.proof.LeafPath
				for d := range st.proof.Siblings {
					alsoAbsent = alsoAbsent && verifier.Bit(p, d) == verifier.Bit(orig, d)
				}
				if (err == nil) != alsoAbsent {
					t.Fatalf("%s: key byte %d ^ %#x: verify says %v, but the key is covered by the proof: %v", st.name, i, mask, err, alsoAbsent)
				}
			}
		}
	}
}

// TestTamperedSiblings edits the decoded proof directly: each sibling
// changed, dropped, or an extra one added, and the terminal swapped.
func TestTamperedSiblings(t *testing.T) {
	for _, st := range allStatements(t) {
		clone := func() *verifier.Proof {
			q := *st.proof
			q.Siblings = append([][32]byte(nil), st.proof.Siblings...)
			return &q
		}
		for i := range st.proof.Siblings {
			q := clone()
			q.Siblings[i][31] ^= 1
			mustFail(t, fmt.Sprintf("%s: sibling %d changed", st.name, i), st.root, st.key, st.value, q)
			q = clone()
			q.Siblings = append(q.Siblings[:i], q.Siblings[i+1:]...)
			mustFail(t, fmt.Sprintf("%s: sibling %d dropped", st.name, i), st.root, st.key, st.value, q)
		}
		q := clone()
		q.Siblings = append(q.Siblings, [32]byte{})
		mustFail(t, st.name+": empty sibling appended", st.root, st.key, st.value, q)
		q = clone()
		q.HasLeaf = !q.HasLeaf
		mustFail(t, st.name+": terminal kind swapped", st.root, st.key, st.value, q)
	}
}

func TestMalformed(t *testing.T) {
	var root [32]byte
	if err := verifier.Verify(root, []byte("k"), nil, nil); !errors.Is(err, verifier.ErrMalformed) {
		t.Fatalf("nil proof: %v", err)
	}
	long := &verifier.Proof{Siblings: make([][32]byte, 257)}
	if err := verifier.Verify(root, []byte("k"), nil, long); !errors.Is(err, verifier.ErrMalformed) {
		t.Fatalf("257 siblings: %v", err)
	}
	if _, err := long.MarshalBinary(); !errors.Is(err, verifier.ErrMalformed) {
		t.Fatalf("encoding 257 siblings: %v", err)
	}
	tests := []struct {
		name string
		hex  string
	}{
		{"empty", ""},
		{"version 0", "000000"},
		{"version 2", "020000"},
		{"terminal kind 2", "010200"},
		{"truncated leaf", "0101" + "00"},
		{"non-minimal count", "01008000"},
		{"count above 256", "01008102" + ""},
		{"count without siblings", "010001"},
		{"trailing byte", "01000000"},
	}
	for _, tt := range tests {
		b, _ := hex.DecodeString(tt.hex)
		if _, err := verifier.DecodeProof(b); !errors.Is(err, verifier.ErrMalformed) {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
	// The smallest valid proof: empty terminal, no siblings.
	if p, err := verifier.DecodeProof([]byte{1, 0, 0}); err != nil || p.HasLeaf || len(p.Siblings) != 0 {
		t.Fatalf("minimal proof: %v", err)
	}
}

// TestDefinitions pins the hashing rules of the package comment: BLAKE3
// itself by the empty input's hash from the BLAKE3 specification, the
// leaf and node layouts by recomputing them from their byte strings, and
// all of it by fixed outputs, so a change cannot pass unnoticed.
func TestDefinitions(t *testing.T) {
	var zero [32]byte
	path := verifier.Path([]byte("k"))
	vh := verifier.LeafValueHash([]byte("v"))
	leafInput := append(append([]byte{0x00}, path[:]...), vh[:]...)
	if verifier.LeafHash(path, vh) != verifier.LeafValueHash(leafInput) {
		t.Fatal("leaf != BLAKE3(0x00 || path || BLAKE3(value))")
	}
	nodeInput := append(append([]byte{}, path[:]...), vh[:]...)
	if verifier.NodeHash(path, vh) != verifier.LeafValueHash(nodeInput) {
		t.Fatal("internal != BLAKE3(left || right)")
	}
	tests := []struct {
		name string
		got  [32]byte
		want string
	}{
		{"BLAKE3(\"\") (specification)", verifier.LeafValueHash(nil), "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262"},
		{"Path(\"k\")", path, "5cbcb0cee824b91866cd67f57a6643ddcb7cd4382029039043513953c759246b"},
		{"LeafValueHash(\"v\")", vh, "fbf7129093429293d558b3993ca13988daba893f4a191bc2b1c1e5b52a0d0172"},
		{"LeafHash", verifier.LeafHash(path, vh), "14ac4559375a908e6157d6f6eeb71bd3d47cbcadc86ad958af1d107c05bc7c54"},
		{"NodeHash(0, 0)", verifier.NodeHash(zero, zero), "4d006976636a8696d909a630a4081aad4d7c50f81afdee04020bf05086ab6a55"},
	}
	for _, tt := range tests {
		if got := hex.EncodeToString(tt.got[:]); got != tt.want {
			t.Errorf("%s = %s, want %s", tt.name, got, tt.want)
		}
	}
	if verifier.Bit([32]byte{0x80}, 0) != 1 || verifier.Bit([32]byte{0x80}, 1) != 0 || verifier.Bit([32]byte{31: 1}, 255) != 1 {
		t.Fatal("path bits are not most significant first")
	}
}
