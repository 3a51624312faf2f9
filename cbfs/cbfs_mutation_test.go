package cbfs

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/iotest"
	"time"
	"unsafe"

	"lukechampine.com/blake3"
	"lukechampine.com/blake3/bao"

	"github.com/cowboy-chain/cowboy/crypto"
)

// Tests written against the mutants gremlins left alive in the cbfs
// package (docs/testing.md, "Mutation testing"): fixed vectors for what
// the commitment hashes, and every bound the manifest, proof, token and
// path checks enforce, at the bound and one past it.

// refLeaf is the leaf of manifest.go written out byte by byte:
// 0x00 ‖ segment u64 ‖ shard u8 ‖ shard length u32 ‖ hash, BLAKE3.
func refLeaf(seg uint64, shard uint8, sl uint32, h ShardHash) [32]byte {
	b := []byte{0}
	b = binary.BigEndian.AppendUint64(b, seg)
	b = append(b, shard)
	b = binary.BigEndian.AppendUint32(b, sl)
	b = append(b, h[:]...)
	return blake3.Sum256(b)
}

// refRoot folds a level as the doc of merkleRoot says, written
// recursively: pairs hashed with a 0x01 prefix, an odd last node carried.
func refRoot(level [][32]byte) [32]byte {
	switch len(level) {
	case 0:
		return [32]byte{}
	case 1:
		return level[0]
	}
	var next [][32]byte
	for i := 0; i < len(level); i += 2 {
		if i+1 == len(level) {
			next = append(next, level[i])
			break
		}
		next = append(next, blake3.Sum256(append(append([]byte{1}, level[i][:]...), level[i+1][:]...)))
	}
	return refRoot(next)
}

func testManifest(segs, k, m int, size uint64) *Manifest {
	mf := &Manifest{Version: ManifestVersion, K: uint8(k), M: uint8(m), SegSize: MinSegmentSize, Size: size}
	for i := 0; i < segs; i++ {
		s := Segment{Relays: make([]RelayID, k+m)}
		for j := 0; j < k+m; j++ {
			s.Hashes = append(s.Hashes, HashShard([]byte(fmt.Sprint(i, j))))
		}
		mf.Segments = append(mf.Segments, s)
	}
	return mf
}

// TestRootFixedVectors computes the commitment root independently of the
// code under test (leaf layout, shard lengths of a short last segment,
// odd nodes carried up) for 1 to 9 segments.
func TestRootFixedVectors(t *testing.T) {
	for segs := 1; segs <= 9; segs++ {
		for _, km := range [][2]int{{1, 0}, {2, 1}, {4, 2}, {3, 2}} {
			size := uint64(segs-1)*MinSegmentSize + 1000 // the last segment is short
			mf := testManifest(segs, km[0], km[1], size)
			if err := mf.Validate(); err != nil {
				t.Fatal(err)
			}
			var leaves [][32]byte
			for i, s := range mf.Segments {
				n := MinSegmentSize
				if i == segs-1 {
					n = 1000
				}
				sl := uint32((n + 16 + km[0] - 1) / km[0])
				if got := mf.ShardLen(i); got != int(sl) {
					t.Fatalf("segment %d of %d: shard length %d, want %d", i, segs, got, sl)
				}
				for j, h := range s.Hashes {
					leaves = append(leaves, refLeaf(uint64(i), uint8(j), sl, h))
				}
			}
			if got, want := mf.Root(), refRoot(leaves); got != want {
				t.Fatalf("segs=%d k,m=%v: root %x, want %x", segs, km, got, want)
			}
		}
	}
	if merkleRoot(nil) != ([32]byte{}) {
		t.Fatal("the root of no leaves is not zero")
	}
}

// TestManifestValidate: each inconsistency is refused on its own.
func TestManifestValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(m *Manifest)
		want string
	}{
		{"valid", func(*Manifest) {}, ""},
		{"version", func(m *Manifest) { m.Version = 2 }, "manifest version 2"},
		{"no data shards", func(m *Manifest) { m.K = 0 }, "need k ≥ 1"},
		{"segment size too small", func(m *Manifest) { m.SegSize = MinSegmentSize - 1 }, "segment size"},
		{"one segment too many", func(m *Manifest) { m.Segments = append(m.Segments, m.Segments[0]) }, "has 4 segments, size needs 3"},
		{"one segment too few", func(m *Manifest) { m.Size = 4 * MinSegmentSize }, "has 3 segments, size needs 4"},
		{"size one byte into another segment", func(m *Manifest) { m.Size = 3*MinSegmentSize + 1 }, "size needs 4"},
		{"size exactly three segments", func(m *Manifest) { m.Size = 3 * MinSegmentSize }, ""},
		{"a hash missing", func(m *Manifest) { m.Segments[1].Hashes = m.Segments[1].Hashes[:5] }, "segment 1: 5 hashes, 6 relays, want 6"},
		{"a relay missing", func(m *Manifest) { m.Segments[2].Relays = m.Segments[2].Relays[:5] }, "segment 2: 6 hashes, 5 relays"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := testManifest(3, 4, 2, 2*MinSegmentSize+5)
			tc.edit(m)
			err := m.Validate()
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
	// An empty file has one (empty) segment.
	if err := testManifest(1, 2, 1, 0).Validate(); err != nil {
		t.Fatalf("empty file: %v", err)
	}
	if err := testManifest(0, 2, 1, 0).Validate(); err == nil {
		t.Fatal("an empty file without its segment validated")
	}
}

// TestParamsValidate checks the erasure shape at each bound.
func TestParamsValidate(t *testing.T) {
	for _, tc := range []struct {
		p  Params
		ok bool
	}{
		{Params{1, 0, MinSegmentSize}, true},
		{Params{0, 1, MinSegmentSize}, false},
		{Params{1, -1, MinSegmentSize}, false},
		{Params{60, 4, MinSegmentSize}, true},
		{Params{60, 5, MinSegmentSize}, false},
		{Params{4, 2, MinSegmentSize - 1}, false},
		{Params{4, 2, MaxSegmentSize}, true},
		{Params{4, 2, MaxSegmentSize + 1}, false},
	} {
		if err := tc.p.Validate(); (err == nil) != tc.ok {
			t.Errorf("%+v: %v, want ok=%v", tc.p, err, tc.ok)
		}
	}
}

// keyN is a fixed test key (deterministic: the same chains every run).
func keyN(t *testing.T, n byte) *crypto.PrivateKey {
	t.Helper()
	var b [32]byte
	b[0], b[31] = 0x5a, n
	k, err := crypto.PrivateKeyFromBytes(b[:])
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestTokenBounds checks the token rules at their bounds: chain length,
// prefix depth, permission bits, expiry (of a link and against its
// parent), the prefix a path must extend, and bearer links.
func TestTokenBounds(t *testing.T) {
	owner := keyN(t, 1)
	key, _ := NewVolumeKey()
	vol := &Volume{ID: DeriveVolumeID(owner.Address(), "logs"), Key: key}
	file, _ := vol.PathTags("a/b/c")
	const now, exp = 1000, 2000

	// A chain of n links: owner → k2 → k3 …, each holding the next.
	chain := func(n int) *Token {
		tok, err := Grant(owner, "logs", nil, PermRead, exp, keyN(t, 2).Address(), [8]byte{})
		if err != nil {
			t.Fatal(err)
		}
		for i := 2; i <= n; i++ {
			if tok, err = tok.Delegate(keyN(t, byte(i)), nil, PermRead, exp, keyN(t, byte(i+1)).Address(), [8]byte{}); err != nil {
				t.Fatal(err)
			}
		}
		return tok
	}
	if v, err := chain(MaxChain).Verify(now, nil); err != nil || len(v.IDs) != MaxChain || v.Holder != keyN(t, MaxChain+1).Address() {
		t.Fatalf("a chain of %d links: %v", MaxChain, err)
	}
	if _, err := chain(MaxChain+1).Verify(now, nil); !errors.Is(err, ErrMalformedTok) {
		t.Fatalf("a chain of %d links: %v, want ErrMalformedTok", MaxChain+1, err)
	}
	if _, err := (&Token{Owner: owner.Address(), Name: "logs"}).Verify(now, nil); !errors.Is(err, ErrMalformedTok) {
		t.Fatalf("a token without links: %v", err)
	}

	deep := make([]Tag, MaxDepth+1)
	for _, tc := range []struct {
		name   string
		prefix []Tag
		perms  Perm
		now    uint64
		want   error
	}{
		{"prefix of 32 levels", deep[:MaxDepth], PermRead, now, nil},
		{"prefix of 33 levels", deep, PermRead, now, ErrMalformedTok},
		{"no permission", nil, 0, now, ErrMalformedTok},
		{"unknown permission bit", nil, PermRead | 4, now, ErrMalformedTok},
		{"read and write", nil, PermRead | PermWrite, now, nil},
		{"the second before expiry", nil, PermRead, exp - 1, nil},
		{"at expiry", nil, PermRead, exp, ErrExpired},
	} {
		tok, err := Grant(owner, "logs", tc.prefix, tc.perms, exp, [20]byte{}, [8]byte{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tok.Verify(tc.now, nil); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}

	// A delegation may keep its parent's expiry, not pass it.
	alice, bob := keyN(t, 20), keyN(t, 21)
	root, _ := Grant(owner, "logs", nil, PermRead|PermWrite, exp, alice.Address(), [8]byte{})
	same, _ := root.Delegate(alice, file[:1], PermRead, exp, bob.Address(), [8]byte{})
	v, err := same.Verify(now, nil)
	if err != nil {
		t.Fatalf("a delegation with its parent's expiry: %v", err)
	}
	if v.Perms != PermRead || v.Expiry != exp || len(v.Prefix) != 1 || v.Holder != bob.Address() || v.Owner != owner.Address() || v.Volume != vol.ID {
		t.Fatalf("verified %+v", v)
	}
	// The same prefix again is no widening.
	carol := keyN(t, 22)
	again, _ := same.Delegate(bob, file[:1], PermRead, exp, carol.Address(), [8]byte{})
	if v2, err := again.Verify(now, nil); err != nil || len(v2.IDs) != 3 {
		t.Fatalf("a delegation with its parent's prefix: %v", err)
	}
	if _, err := (&Token{}).Delegate(alice, nil, PermRead, exp, bob.Address(), [8]byte{}); !errors.Is(err, ErrMalformedTok) {
		t.Fatalf("delegating an empty token: %v", err)
	}
	later, _ := root.Delegate(alice, file[:1], PermRead, exp+1, bob.Address(), [8]byte{})
	if _, err := later.Verify(now, nil); !errors.Is(err, ErrWidened) {
		t.Fatalf("a delegation one second past its parent: %v", err)
	}

	// Allows: a path must be longer than the prefix and extend it.
	for _, tc := range []struct {
		name string
		tags []Tag
		perm Perm
		who  [20]byte
		want error
	}{
		{"one level below the prefix", file[:2], PermRead, bob.Address(), nil},
		{"two levels below", file, PermRead, bob.Address(), nil},
		{"the prefix itself", file[:1], PermRead, bob.Address(), ErrNotPermitted},
		{"a listing (nil tags)", nil, PermRead, bob.Address(), nil},
		{"read and write on a read token", file, PermRead | PermWrite, bob.Address(), ErrNotPermitted},
		{"another requester", file, PermRead, alice.Address(), ErrWrongHolder},
	} {
		if err := v.Allows(vol.ID, tc.tags, tc.perm, tc.who); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
	bearer, _ := Grant(owner, "logs", nil, PermRead, exp, [20]byte{}, [8]byte{})
	bv, err := bearer.Verify(now, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := bv.Allows(vol.ID, file, PermRead, keyN(t, 99).Address()); err != nil {
		t.Fatalf("a bearer token refused a stranger: %v", err)
	}
	if _, err := (&Token{Owner: owner.Address(), Name: "Logs", Links: bearer.Links}).Verify(now, nil); !errors.Is(err, ErrMalformedTok) {
		t.Fatalf("a token with an invalid volume name: %v", err)
	}
	short := *bearer
	short.Links = []Link{bearer.Links[0]}
	short.Links[0].Sig = short.Links[0].Sig[:64]
	if _, err := short.Verify(now, nil); !errors.Is(err, ErrForged) {
		t.Fatalf("a 64-byte signature: %v", err)
	}
}

// tokenOfSize is a (not verifiable) token whose CBOR is exactly n bytes.
func tokenOfSize(t *testing.T, n int) *Token {
	t.Helper()
	for l := n - 400; l <= n; l++ {
		tok := &Token{Name: strings.Repeat("a", l), Links: []Link{{Perms: PermRead}}}
		b, err := Marshal(tok)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) == n {
			return tok
		}
	}
	t.Fatalf("no token of %d bytes", n)
	return nil
}

// TestTokenSizeBounds: a token of MaxTokenBytes decodes in both forms, a
// byte more does not, and the printable form's length check sits just
// above what MaxTokenBytes encodes to.
func TestTokenSizeBounds(t *testing.T) {
	at := tokenOfSize(t, MaxTokenBytes)
	b, _ := Marshal(at)
	if _, err := DecodeToken(b); err != nil {
		t.Fatalf("a token of %d bytes: %v", MaxTokenBytes, err)
	}
	s, _ := at.Encode()
	if got, err := ParseToken(" " + s + "\n"); err != nil || got.Name != at.Name {
		t.Fatalf("the printable token of %d bytes: %v", MaxTokenBytes, err)
	}
	over, _ := Marshal(tokenOfSize(t, MaxTokenBytes+1))
	if _, err := DecodeToken(over); err == nil || !strings.Contains(err.Error(), "8193 bytes") {
		t.Fatalf("a token of %d bytes: %v", MaxTokenBytes+1, err)
	}
	limit := MaxTokenBytes*4/3 + 4 // 10,926 characters
	if _, err := ParseToken("cbfs1." + strings.Repeat("A", limit)); err == nil || !strings.Contains(err.Error(), "8194 bytes") {
		t.Fatalf("%d characters: %v, want the decoded size refused", limit, err)
	}
	if _, err := ParseToken("cbfs1." + strings.Repeat("A", limit+1)); err == nil || !strings.Contains(err.Error(), "not a cbfs1 token") {
		t.Fatalf("%d characters: %v, want the length refused", limit+1, err)
	}
}

// TestNamesAndPaths: volume names and paths at their bounds and at the
// edges of the allowed characters.
func TestNamesAndPaths(t *testing.T) {
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{"a", true}, {"z", true}, {"0", true}, {"9", true}, {"a.b_c-d", true},
		{strings.Repeat("x", MaxVolumeNameLen), true}, {strings.Repeat("x", MaxVolumeNameLen+1), false}, {"", false},
		{"`", false}, {"{", false}, {"/", false}, {":", false}, {"A", false}, {" ", false}, {"é", false},
	} {
		if err := ValidVolumeName(tc.name); (err == nil) != tc.ok {
			t.Errorf("ValidVolumeName(%q): %v, want ok=%v", tc.name, err, tc.ok)
		}
	}
	for _, tc := range []struct {
		path, want string
		ok         bool
	}{
		{"/a/b/", "a/b", true},
		{strings.Repeat("x", 1024), strings.Repeat("x", 1024), true},
		{strings.Repeat("x", 1025), "", false},
		{strings.Repeat("d/", MaxDepth-1) + "f", strings.Repeat("d/", MaxDepth-1) + "f", true},
		{strings.Repeat("d/", MaxDepth) + "f", "", false},
		{"a/./b", "", false},
	} {
		got, err := CleanPath(tc.path)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("CleanPath(%.20q…): %q %v, want %q ok=%v", tc.path, got, err, tc.want, tc.ok)
		}
	}
	if tags, err := testVolume(t).PrefixTags("//"); err != nil || tags != nil {
		t.Fatalf("the whole volume's prefix: %v %v", tags, err)
	}
	id := DeriveVolumeID([20]byte{7}, "logs")
	if got, err := ParseVolumeID(id.String()); err != nil || got != id {
		t.Fatalf("volume id round trip: %v", err)
	}
	if _, err := ParseVolumeID(id.String()[:65]); err == nil {
		t.Fatal("a 31.5-byte volume id parsed")
	}
}

// TestRevocationRefusals: a revocation with a bad name or a short
// signature is refused before any recovery.
func TestRevocationRefusals(t *testing.T) {
	owner := keyN(t, 1)
	r, err := Revoke(owner, "logs", [32]byte{1}, 5)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := r.Verify(); err != nil || v != DeriveVolumeID(owner.Address(), "logs") {
		t.Fatalf("revocation: %v", err)
	}
	bad := *r
	bad.Name = "Logs"
	if _, err := bad.Verify(); !errors.Is(err, ErrMalformedTok) {
		t.Fatalf("bad name: %v", err)
	}
	bad = *r
	bad.Sig = r.Sig[:64]
	if _, err := bad.Verify(); !errors.Is(err, ErrMalformedTok) {
		t.Fatalf("64-byte signature: %v", err)
	}
	bad = *r
	bad.Link = [32]byte{2}
	if _, err := bad.Verify(); !errors.Is(err, ErrForged) {
		t.Fatalf("edited link: %v", err)
	}
}

// TestCustodyReceipts: a relay's signed receipt verifies; every field it
// signs, the signer, the shape and the proof are checked.
func TestCustodyReceipts(t *testing.T) {
	relay := keyN(t, 40)
	mf := testManifest(3, 4, 2, 2*MinSegmentSize+5)
	root := mf.Root()
	receipt := func(seg, shard int) *CustodyReceipt {
		return &CustodyReceipt{Relay: RelayID(relay.Address()), Volume: VolumeID{1}, PathID: Tag{2}, Root: root, N: 6,
			Hash: mf.Segments[seg].Hashes[shard], Proof: mf.Proof(seg, shard)}
	}
	for _, pos := range [][2]int{{0, 0}, {1, 5}, {2, 3}} {
		r := receipt(pos[0], pos[1])
		if err := SignCustody(relay, r); err != nil {
			t.Fatal(err)
		}
		if err := r.Verify(); err != nil {
			t.Fatalf("receipt for %v: %v", pos, err)
		}
	}
	if err := SignCustody(keyN(t, 41), receipt(0, 0)); err == nil {
		t.Fatal("a relay signed a receipt naming another relay")
	}
	for _, tc := range []struct {
		name string
		edit func(r *CustodyReceipt) // after signing; resign: edit before
		pre  bool
		want string
	}{
		{"short signature", func(r *CustodyReceipt) { r.Sig = r.Sig[:64] }, false, "signature must be 65 bytes"},
		{"edited path", func(r *CustodyReceipt) { r.PathID = Tag{3} }, false, "not signed by relay"},
		{"garbage signature", func(r *CustodyReceipt) { r.Sig = make([]byte, 65) }, false, "not signed by relay"},
		{"n = 0", func(r *CustodyReceipt) { r.N = 0 }, true, "n=0 outside 1..64"},
		{"n = 65", func(r *CustodyReceipt) { r.N = 65 }, true, "n=65 outside 1..64"},
		{"n = 64 with another shape", func(r *CustodyReceipt) { r.N = 64 }, true, "merkle proof"},
		{"another shard's hash", func(r *CustodyReceipt) { r.Hash = mf.Segments[1].Hashes[4] }, true, "merkle proof"},
	} {
		r := receipt(1, 5)
		if tc.pre {
			tc.edit(r)
		}
		if err := SignCustody(relay, r); err != nil {
			t.Fatal(err)
		}
		if !tc.pre {
			tc.edit(r)
		}
		if err := r.Verify(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	// N = 1: a one-shard file's receipt.
	one := testManifest(1, 1, 0, 10)
	r := &CustodyReceipt{Relay: RelayID(relay.Address()), Root: one.Root(), N: 1, Hash: one.Segments[0].Hashes[0], Proof: one.Proof(0, 0)}
	if err := SignCustody(relay, r); err != nil || r.Verify() != nil {
		t.Fatalf("a one-shard receipt: %v %v", err, r.Verify())
	}
}

// TestChallengeRange pins the challenged range: offset = first 8 bytes of
// the seed (big-endian) mod the shard length, at most
// MaxChainChallengeBytes, never past the shard's end.
func TestChallengeRange(t *testing.T) {
	seed := func(x uint64) [32]byte {
		var s [32]byte
		binary.BigEndian.PutUint64(s[:], x)
		s[31] = 0xff // ignored
		return s
	}
	for _, tc := range []struct {
		x, sl, off, n uint64
	}{
		{5, 0, 0, 0},
		{0, 5000, 0, 1024},
		{3000, 5000, 3000, 1024},
		{3976, 5000, 3976, 1024},
		{3977, 5000, 3977, 1023},
		{4999, 5000, 4999, 1},
		{5000, 5000, 0, 1024},
		{5000 + 4990, 5000, 4990, 10},
		{7, 100, 7, 93},
	} {
		off, n := ChallengeRange(seed(tc.x), uint32(tc.sl))
		if off != tc.off || n != tc.n {
			t.Errorf("seed %d, shard %d: [%d, +%d), want [%d, +%d)", tc.x, tc.sl, off, n, tc.off, tc.n)
		}
	}
}

// TestVerifySlice: a Bao slice of the challenged range proves exactly
// those bytes of the shard, and only under its hash.
func TestVerifySlice(t *testing.T) {
	data := randBytes(70_000, 5)
	outboard, root := bao.EncodeBuf(data, BaoGroup, true)
	if ShardHash(root) != HashShard(data) {
		t.Fatal("the Bao root is not the shard's BLAKE3")
	}
	off, n := uint64(40_000), uint64(MaxChainChallengeBytes)
	var slice bytes.Buffer
	start := off / (1024 << BaoGroup) * (1024 << BaoGroup) // the outboard form reads from the first group in range
	if err := bao.ExtractSlice(&slice, bytes.NewReader(data[start:]), bytes.NewReader(outboard), BaoGroup, off, n); err != nil {
		t.Fatal(err)
	}
	got, ok := VerifySlice(slice.Bytes(), HashShard(data), off, n)
	if !ok || !bytes.Equal(got, data[off:off+n]) {
		t.Fatal("a valid slice did not verify")
	}
	if _, ok := VerifySlice(slice.Bytes(), HashShard(data[1:]), off, n); ok {
		t.Fatal("a slice verified under another hash")
	}
}

// TestEncodeSegmentRewrite: a segment rewritten in place under a new
// generation decodes only with that generation, and the rewrite's
// bounds (a nonzero generation, at most a segment of plaintext) hold.
func TestEncodeSegmentRewrite(t *testing.T) {
	v := testVolume(t)
	p := Params{K: 3, M: 2, SegmentSize: MinSegmentSize}
	f := FileID{4}
	if _, err := EncodeSegment(v, p, f, 0, 0, []byte("x")); err == nil || !strings.Contains(err.Error(), "nonzero generation") {
		t.Fatalf("generation 0: %v", err)
	}
	if _, err := EncodeSegment(v, p, f, 0, 1, make([]byte, MinSegmentSize+1)); err == nil || !strings.Contains(err.Error(), "segment of 4097 bytes") {
		t.Fatalf("a segment too long: %v", err)
	}
	if _, err := EncodeSegment(v, Params{K: 0, M: 1, SegmentSize: MinSegmentSize}, f, 0, 1, nil); err == nil {
		t.Fatal("a rewrite with a bad shape")
	}
	plain := randBytes(MinSegmentSize, 11)
	seg, err := EncodeSegment(v, p, f, 2, 77, plain)
	if err != nil {
		t.Fatal(err)
	}
	if seg.Gen != 77 || seg.Index != 2 || seg.File != f || len(seg.Shards) != 5 || len(seg.Hashes) != 5 {
		t.Fatalf("segment %+v", seg)
	}
	c, err := newCodec(p)
	if err != nil {
		t.Fatal(err)
	}
	shards := func() [][]byte {
		s := make([][]byte, 5)
		for i := 2; i < 5; i++ { // two data shards lost
			s[i] = bytes.Clone(seg.Shards[i])
		}
		return s
	}
	got, bad, err := c.decode(v, f, 2, 77, len(plain), shards(), seg.Hashes)
	if err != nil || len(bad) != 0 || !bytes.Equal(got, plain) {
		t.Fatalf("decode under the generation: %v %v", err, bad)
	}
	for _, gen := range []uint64{0, 78} {
		if _, _, err := c.decode(v, f, 2, gen, len(plain), shards(), seg.Hashes); !errors.Is(err, ErrAuth) {
			t.Fatalf("decode under generation %d: %v, want ErrAuth", gen, err)
		}
	}
	if _, _, err := c.decode(v, f, 3, 77, len(plain), shards(), seg.Hashes); !errors.Is(err, ErrAuth) {
		t.Fatalf("decode at another index: %v, want ErrAuth", err)
	}
	if _, _, err := c.decode(v, f, 2, 77, len(plain), shards()[:4], seg.Hashes); err == nil || !strings.Contains(err.Error(), "4 shards, want 5") {
		t.Fatalf("four shards: %v", err)
	}
	if _, _, err := c.decode(v, f, 2, 77, len(plain), shards(), seg.Hashes[:4]); err == nil {
		t.Fatal("four hashes decoded")
	}
	// A shard of the wrong length is rejected even before its hash.
	s := shards()
	s[0] = bytes.Clone(seg.Shards[0][:len(seg.Shards[0])-1])
	if _, bad, err := c.decode(v, f, 2, 77, len(plain), s, seg.Hashes); err != nil || !slices.Equal(bad, []int{0}) {
		t.Fatalf("a short shard: %v, bad %v", err, bad)
	}
	// Exactly K shards rebuild; K−1 do not.
	s = shards()
	s[2] = nil
	if _, _, err := c.decode(v, f, 2, 77, len(plain), s, seg.Hashes); !errors.Is(err, ErrTooFewShards) || !strings.Contains(err.Error(), "2 of 3 needed") {
		t.Fatalf("two shards: %v", err)
	}
	g, err := NewSegmentGen()
	if err != nil || g == 0 {
		t.Fatalf("generation %d %v", g, err)
	}
}

// TestHedgeDelay pins when a stalled shard is replaced: four times the
// first answer's delay, at least a second.
func TestHedgeDelay(t *testing.T) {
	for _, tc := range []struct{ first, want time.Duration }{
		{0, time.Second},
		{100 * time.Millisecond, time.Second},
		{250 * time.Millisecond, time.Second},
		{300 * time.Millisecond, 1200 * time.Millisecond},
		{2 * time.Second, 8 * time.Second},
	} {
		if got := hedgeDelay(tc.first); got != tc.want {
			t.Errorf("hedgeDelay(%v) = %v, want %v", tc.first, got, tc.want)
		}
	}
}

// TestSegmentStopsAtK: fetchSegment stops at exactly K valid shards and
// cancels what is still in flight, rather than waiting for another. Data
// shard 1 stalls until its context ends, so the hedge asks for parity
// shard 4; once it is in, the segment is complete. A loop that ran one
// shard further (`valid <= k`) would hedge again, fetch parity shard 5
// too and return K+1 shards. The count does not depend on timing: even if
// a slow machine lets the hedge fire twice before shard 4 is read, the
// loop stops at the K-th valid shard and the later one is dropped.
func TestSegmentStopsAtK(t *testing.T) {
	v := testVolume(t)
	var st memStore
	p := Params{K: 4, M: 2, SegmentSize: MinSegmentSize}
	m, err := Encode(context.Background(), v, "a", p, bytes.NewReader(randBytes(MinSegmentSize, 9)), 1, st.place)
	if err != nil {
		t.Fatal(err)
	}
	stalled := func(ctx context.Context, i, j int, dst []byte) ([]byte, error) {
		if j == 1 {
			<-ctx.Done()
			return nil, ctx.Err()
		}
		return st.fetch(ctx, i, j, dst)
	}
	shards, bad := fetchSegment(context.Background(), m, 0, stalled, nil)
	got := 0
	for _, b := range shards {
		if b != nil {
			got++
		}
	}
	if got != int(p.K) || shards[1] != nil {
		t.Errorf("fetched %d shards (shard 1 %v), want exactly K=%d without shard 1", got, shards[1] != nil, p.K)
	}
	if len(bad) != 1 || bad[0].Shard != 1 || !errors.Is(bad[0].Err, ErrSlow) {
		t.Errorf("bad shards %+v, want only shard 1, cancelled as ErrSlow", bad)
	}
}

// TestHedgeWithNothingLeft: once every shard of a segment has been asked
// for, a hedge that fires asks for nothing more and the segment waits for
// the shards in flight. K=4, M=1: data shard 1 never answers, the first
// hedge asks for the only parity shard, which answers three seconds after
// it was asked (after the hedges of the next two seconds had nothing left
// to ask for). Asking again then (`next <= n`) would index past the last
// shard. The clock here only decides whether those hedges fire before
// the parity shard answers; a correct loop passes either way.
func TestHedgeWithNothingLeft(t *testing.T) {
	v := testVolume(t)
	var st memStore
	p := Params{K: 4, M: 1, SegmentSize: MinSegmentSize}
	m, err := Encode(context.Background(), v, "a", p, bytes.NewReader(randBytes(MinSegmentSize, 10)), 1, st.place)
	if err != nil {
		t.Fatal(err)
	}
	fetch := func(ctx context.Context, i, j int, dst []byte) ([]byte, error) {
		switch j {
		case 1:
			<-ctx.Done()
			return nil, ctx.Err()
		case 4:
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(3 * time.Second):
			}
		}
		return st.fetch(ctx, i, j, dst)
	}
	shards, bad := fetchSegment(context.Background(), m, 0, fetch, nil)
	for j, b := range shards {
		if (b == nil) != (j == 1) {
			t.Errorf("shard %d fetched: %v, want every shard but 1", j, b != nil)
		}
	}
	if len(bad) != 1 || bad[0].Shard != 1 || !errors.Is(bad[0].Err, ErrSlow) {
		t.Errorf("bad shards %+v, want only shard 1, cancelled as ErrSlow", bad)
	}
}

// TestWorkersBelowOne: a worker count below one, zero or negative, means
// one worker per core for Encode and Decode alike, and the file comes back
// whole (a negative count used as given would size Decode's pipeline
// below zero).
func TestWorkersBelowOne(t *testing.T) {
	v := testVolume(t)
	data := randBytes(2*MinSegmentSize+5, 11)
	p := Params{K: 2, M: 1, SegmentSize: MinSegmentSize}
	for _, workers := range []int{0, -1, -3} {
		var st memStore
		m, err := Encode(context.Background(), v, "a", p, bytes.NewReader(data), workers, st.place)
		if err != nil {
			t.Fatalf("workers %d: encode: %v", workers, err)
		}
		var out bytes.Buffer
		if err := Decode(context.Background(), v, m, st.fetch, &out, workers, nil); err != nil || !bytes.Equal(out.Bytes(), data) {
			t.Fatalf("workers %d: decode: %v (%d of %d bytes)", workers, err, out.Len(), len(data))
		}
	}
}

// TestEncodeDecodeRefusals: what Encode, Decode and RebuildShards refuse,
// and that a placement or read failure ends Encode with that error.
func TestEncodeDecodeRefusals(t *testing.T) {
	v := testVolume(t)
	p := Params{K: 2, M: 1, SegmentSize: MinSegmentSize}
	var st memStore
	if _, err := Encode(context.Background(), v, "../x", p, bytes.NewReader(nil), 1, st.place); err == nil {
		t.Fatal("a bad path encoded")
	}
	if _, err := Encode(context.Background(), v, "x", Params{K: 2, M: 1, SegmentSize: 1}, bytes.NewReader(nil), 1, st.place); err == nil {
		t.Fatal("a bad shape encoded")
	}
	data := randBytes(3*MinSegmentSize+9, 12)
	// Workers below 1 means one per core.
	m, err := Encode(context.Background(), v, "x", p, bytes.NewReader(data), 0, st.place)
	if err != nil || m.Size != uint64(len(data)) || len(m.Segments) != 4 || m.Path != "x" || m.Volume != v.ID {
		t.Fatalf("encode with default workers: %v", err)
	}
	var out bytes.Buffer
	if err := Decode(context.Background(), v, m, st.fetch, &out, 0, nil); err != nil || !bytes.Equal(out.Bytes(), data) {
		t.Fatalf("decode with default workers: %v", err)
	}
	boom := errors.New("boom")
	var scratch memStore // the failing encodes must not overwrite m's shards
	_, err = Encode(context.Background(), v, "x", p, bytes.NewReader(data), 1, func(_ context.Context, e *EncodedSegment) ([]RelayID, error) {
		if e.Index == 2 {
			return nil, boom
		}
		return scratch.place(context.Background(), e)
	})
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "place segment 2") {
		t.Fatalf("a placement failure: %v", err)
	}
	_, err = Encode(context.Background(), v, "x", p, io.MultiReader(bytes.NewReader(data[:MinSegmentSize+5]), iotest.ErrReader(boom)), 1, scratch.place)
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "cbfs: read") {
		t.Fatalf("a read failure: %v", err)
	}

	other := &Volume{ID: DeriveVolumeID([20]byte{9}, "x"), Key: v.Key}
	if err := Decode(context.Background(), other, m, st.fetch, io.Discard, 1, nil); err == nil || !strings.Contains(err.Error(), "another volume") {
		t.Fatalf("decode under another volume: %v", err)
	}
	bad := *m
	bad.Version = 9
	if err := Decode(context.Background(), v, &bad, st.fetch, io.Discard, 1, nil); err == nil {
		t.Fatal("an invalid manifest decoded")
	}
	if err := Decode(context.Background(), v, m, st.fetch, failWriter{boom}, 1, nil); !errors.Is(err, boom) {
		t.Fatalf("a write failure: %v", err)
	}

	// RebuildShards: a shard rebuilt from the others must match its
	// manifest hash; too few shards are refused.
	lost := map[int]bool{0: true}
	fetch := func(ctx context.Context, i, j int, dst []byte) ([]byte, error) {
		if lost[j] {
			return nil, errors.New("lost")
		}
		return st.fetch(ctx, i, j, dst)
	}
	edited := *m
	edited.Segments = slices.Clone(m.Segments)
	edited.Segments[1].Hashes = slices.Clone(m.Segments[1].Hashes)
	edited.Segments[1].Hashes[0] = ShardHash{1}
	if _, _, err := RebuildShards(context.Background(), &edited, 1, fetch); err == nil || !strings.Contains(err.Error(), "shard 0: rebuilt shard does not match") {
		t.Fatalf("a rebuilt shard against an edited hash: %v", err)
	}
	lost[1] = true
	if _, _, err := RebuildShards(context.Background(), m, 1, fetch); !errors.Is(err, ErrTooFewShards) {
		t.Fatalf("rebuild from one shard: %v", err)
	}
	noShape := *m
	noShape.K = 0
	if _, _, err := RebuildShards(context.Background(), &noShape, 1, fetch); err == nil {
		t.Fatal("a rebuild with k = 0")
	}
}

type failWriter struct{ err error }

func (w failWriter) Write([]byte) (int, error) { return 0, w.err }

// TestSealedBlobLength: a sealed blob shorter than a nonce and a tag is
// refused as too short; one of exactly that length reaches (and fails)
// authentication.
func TestSealedBlobLength(t *testing.T) {
	v := testVolume(t)
	pid := Tag{1}
	for _, tc := range []struct {
		n     int
		short bool
	}{{27, true}, {28, false}, {40, false}} {
		_, err := v.OpenManifest(make([]byte, tc.n), pid)
		if !errors.Is(err, ErrAuth) || strings.Contains(err.Error(), "too short") != tc.short {
			t.Errorf("%d bytes: %v, want too short = %v", tc.n, err, tc.short)
		}
	}
	m := testManifest(1, 2, 1, 10)
	m.Volume, m.Path = v.ID, "a/b"
	tags, _ := v.PathTags("a/b")
	sealed, err := v.SealManifest(m, tags[1])
	if err != nil {
		t.Fatal(err)
	}
	if got, err := v.OpenManifest(sealed, tags[1]); err != nil || got.Path != "a/b" {
		t.Fatalf("open: %v", err)
	}
	m.Version = 0
	if _, err := v.SealManifest(m, tags[1]); err == nil {
		t.Fatal("an invalid manifest sealed")
	}
	// A manifest sealed for another volume's id under the same key.
	other := &Volume{ID: DeriveVolumeID([20]byte{5}, "x"), Key: v.Key}
	m.Version = ManifestVersion
	if _, err := v.OpenManifest(sealed[:len(sealed)-1], tags[1]); !errors.Is(err, ErrAuth) {
		t.Fatalf("a truncated manifest: %v", err)
	}
	if _, err := other.OpenManifest(sealed, tags[1]); err == nil {
		t.Fatal("a manifest opened under another volume")
	}
	// Sealed by this volume but naming another, or sealed for the path
	// id of another path: both refused after opening.
	m.Volume = other.ID
	wrongVol, _ := v.SealManifest(m, tags[1])
	if _, err := v.OpenManifest(wrongVol, tags[1]); err == nil || !strings.Contains(err.Error(), "belongs to another volume") {
		t.Fatalf("a manifest naming another volume: %v", err)
	}
	m.Volume = v.ID
	ctags, _ := v.PathTags("a/c")
	wrongPath, _ := v.SealManifest(m, ctags[1])
	if _, err := v.OpenManifest(wrongPath, ctags[1]); err == nil || !strings.Contains(err.Error(), "does not match its path id") {
		t.Fatalf("a manifest sealed for another path id: %v", err)
	}
	m.Path = "a/../c"
	badPath, _ := Marshal(m)
	sealedBad, _ := v.sealBlob("manifest", badPath, append(v.ID[:], ctags[1][:]...))
	if _, err := v.OpenManifest(sealedBad, ctags[1]); err == nil || !strings.Contains(err.Error(), "does not match its path id") {
		t.Fatalf("a manifest with an unclean path: %v", err)
	}
	garbage, _ := v.sealBlob("manifest", []byte{0xff}, append(v.ID[:], ctags[1][:]...))
	if _, err := v.OpenManifest(garbage, ctags[1]); err == nil || !strings.Contains(err.Error(), "decode manifest") {
		t.Fatalf("a sealed blob that is no manifest: %v", err)
	}
}

// TestProofShape: a proof's position and size are checked before any
// hashing, at each bound.
func TestProofShape(t *testing.T) {
	mf := testManifest(2, 2, 1, MinSegmentSize+1)
	root := mf.Root()
	p := mf.Proof(1, 2)
	if err := p.Verify(root, 3, mf.Segments[1].Hashes[2]); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		edit func(q *ShardProof) int // returns shards per segment
		want string
	}{
		{"shard index = shards per segment", func(q *ShardProof) int { q.Shard = 3; return 3 }, "bad shape"},
		{"no shards per segment", func(q *ShardProof) int { return 0 }, "bad shape"},
		{"no leaves", func(q *ShardProof) int { q.Leaves = 0; return 3 }, "bad shape"},
		{"2^40 leaves", func(q *ShardProof) int { q.Leaves = 1 << 40; return 3 }, "too few siblings"},
		{"2^40 + 1 leaves", func(q *ShardProof) int { q.Leaves = 1<<40 + 1; return 3 }, "bad shape"},
		{"position = leaves", func(q *ShardProof) int { q.Leaves = 6; q.Segment = 2; q.Shard = 0; return 3 }, "outside the tree"},
		{"an extra sibling", func(q *ShardProof) int { q.Siblings = append(q.Siblings, [32]byte{}); return 3 }, "does not match"},
	} {
		q := p
		q.Siblings = slices.Clone(p.Siblings)
		n := tc.edit(&q)
		if err := q.Verify(root, n, mf.Segments[1].Hashes[2]); !errors.Is(err, ErrBadProof) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestDecodeFetchesInPlace: Decode offers every fetch an empty buffer
// with room for its shard, each shard its own place in one segment
// buffer (shard j at j shard lengths from the start of the segment's),
// so a fetch that appends there saves a copy; the file comes back whole
// whether the fetch uses the buffer or returns a slice of its own, with
// shards missing (rebuilt in place) or not. RebuildShards offers the
// same.
func TestDecodeFetchesInPlace(t *testing.T) {
	v := testVolume(t)
	data := randBytes(3*MinSegmentSize+100, 12)
	p := Params{K: 3, M: 2, SegmentSize: MinSegmentSize}
	var st memStore
	m, err := Encode(context.Background(), v, "a", p, bytes.NewReader(data), 1, st.place)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		lost     int // data shard missing in every segment, -1 none
		ownSlice bool
		workers  int
	}{
		{"in place", -1, false, 1},
		{"in place, one rebuilt", 1, false, 2},
		{"own slices", -1, true, 1},
		{"own slices, one rebuilt", 0, true, 3},
	} {
		var mu sync.Mutex
		starts := map[int]map[int]*byte{} // segment → shard → &dst[:1][0]
		fetch := func(ctx context.Context, i, j int, dst []byte) ([]byte, error) {
			sl := m.ShardLen(i)
			if len(dst) != 0 || cap(dst) != sl {
				t.Errorf("%s: segment %d shard %d: dst len %d cap %d, want 0 and %d", tc.name, i, j, len(dst), cap(dst), sl)
				return nil, errors.New("no room")
			}
			mu.Lock()
			if starts[i] == nil {
				starts[i] = map[int]*byte{}
			}
			starts[i][j] = &dst[:1][0]
			mu.Unlock()
			if j == tc.lost {
				return nil, errors.New("lost")
			}
			if tc.ownSlice {
				return st.fetch(ctx, i, j, nil)
			}
			return st.fetch(ctx, i, j, dst)
		}
		var out bytes.Buffer
		if err := Decode(context.Background(), v, m, fetch, &out, tc.workers, nil); err != nil || !bytes.Equal(out.Bytes(), data) {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for i, byShard := range starts {
			sl := m.ShardLen(i)
			first, ok := byShard[0]
			if !ok {
				t.Fatalf("%s: segment %d: shard 0 not asked for", tc.name, i)
			}
			for j, s := range byShard {
				// Shard j's place is j*sl bytes after shard 0's.
				if want := unsafe.Add(unsafe.Pointer(first), j*sl); unsafe.Pointer(s) != want {
					t.Errorf("%s: segment %d shard %d not at its place in the segment buffer", tc.name, i, j)
				}
			}
		}
	}
	// A buffer too small for every shard is not used: each fetch gets no
	// room, and the shards still come back.
	shards, bad := fetchSegment(context.Background(), m, 0, func(ctx context.Context, i, j int, dst []byte) ([]byte, error) {
		if cap(dst) != 0 {
			t.Errorf("shard %d: a buffer of %d bytes offered from one too small", j, cap(dst))
		}
		return st.fetch(ctx, i, j, dst)
	}, make([]byte, 5*m.ShardLen(0)-1))
	if len(bad) != 0 || len(shards) != 5 || shards[0] == nil {
		t.Fatalf("fetch with a buffer too small: %d shards, bad %v", len(shards), bad)
	}
	var (
		askedMu sync.Mutex
		asked   []int
	)
	fetch := func(ctx context.Context, i, j int, dst []byte) ([]byte, error) {
		askedMu.Lock()
		asked = append(asked, cap(dst))
		askedMu.Unlock()
		return st.fetch(ctx, i, j, dst)
	}
	if _, _, err := RebuildShards(context.Background(), m, 1, fetch); err != nil {
		t.Fatal(err)
	}
	for _, c := range asked {
		if c != m.ShardLen(1) {
			t.Fatalf("RebuildShards offered a buffer of %d bytes, want %d", c, m.ShardLen(1))
		}
	}
}

// TestOpenInPlace: open puts the segment together in the buffer it is
// given when that has room for K shards (the plaintext comes back in it),
// copies a shard that is not in its place, leaves the shards it was given
// untouched, and uses a new buffer when the one given is too small.
func TestOpenInPlace(t *testing.T) {
	v := testVolume(t)
	p := Params{K: 3, M: 2, SegmentSize: MinSegmentSize}
	f := FileID{5}
	plain := randBytes(MinSegmentSize-7, 13)
	seg, err := EncodeSegment(v, p, f, 1, 9, plain)
	if err != nil {
		t.Fatal(err)
	}
	c, err := newCodec(p)
	if err != nil {
		t.Fatal(err)
	}
	sl := p.shardLen(len(plain))
	for _, tc := range []struct {
		name    string
		bufLen  int
		inPlace []int // data shards put in their place in buf first
		lost    []int
		reused  bool
	}{
		{"exact room, all copied", sl * p.K, nil, nil, true},
		{"exact room, all in place", sl * p.K, []int{0, 1, 2}, nil, true},
		{"room, one in place, one rebuilt", sl*(p.K+p.M) + 5, []int{2}, []int{0}, true},
		{"too small", sl*p.K - 1, nil, []int{1}, false},
		{"none", 0, nil, nil, false},
	} {
		buf := make([]byte, tc.bufLen)
		shards := make([][]byte, p.K+p.M)
		orig := make([][]byte, p.K+p.M)
		for j := range shards {
			orig[j] = bytes.Clone(seg.Shards[j])
			shards[j] = bytes.Clone(seg.Shards[j])
		}
		for _, j := range tc.inPlace {
			shards[j] = append(buf[j*sl:j*sl:(j+1)*sl], seg.Shards[j]...)
		}
		for _, j := range tc.lost {
			shards[j] = nil
		}
		kept := slices.Clone(shards)
		got, err := c.open(v, f, 1, 9, len(plain), shards, buf)
		if err != nil || !bytes.Equal(got, plain) {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if inBuf := len(buf) > 0 && &got[0] == &buf[0]; inBuf != tc.reused {
			t.Fatalf("%s: plaintext in the buffer given: %v, want %v", tc.name, inBuf, tc.reused)
		}
		for j, s := range kept {
			if s != nil && !slices.Contains(tc.inPlace, j) && !bytes.Equal(s, orig[j]) {
				t.Fatalf("%s: shard %d given to open was changed", tc.name, j)
			}
		}
		// A lost data shard is rebuilt in its place in buf.
		for _, j := range tc.lost {
			if tc.reused && &shards[j][0] != &buf[j*sl] {
				t.Fatalf("%s: lost shard %d not rebuilt in its place", tc.name, j)
			}
		}
	}
}

// TestSegBufs: a buffer given back is handed out again (cut to the length
// asked for) when it is large enough, and survives a collection; one too
// small for the request is dropped; segBufs keeps at most keepSegBufs
// buffers and none above maxKeptSegBuf. Encode gives its slots back.
func TestSegBufs(t *testing.T) {
	drain := func() int {
		n := 0
		for {
			select {
			case <-segBufs:
				n++
			default:
				return n
			}
		}
	}
	drain()
	b := make([]byte, 10, 100)
	putSegBuf(b)
	runtime.GC()
	if got := getSegBuf(100); len(got) != 100 || &got[0] != &b[:1][0] {
		t.Fatal("a kept buffer of exactly the size asked for was not handed out")
	}
	putSegBuf(b)
	if got := getSegBuf(101); len(got) != 101 || &got[0] == &b[:1][0] {
		t.Fatal("a kept buffer too small was handed out")
	}
	if n := drain(); n != 0 {
		t.Fatalf("a buffer too small for a request was kept (%d left)", n)
	}
	putSegBuf(make([]byte, 0, maxKeptSegBuf+1))
	largest := make([]byte, 1, maxKeptSegBuf)
	putSegBuf(largest)
	if got := getSegBuf(maxKeptSegBuf); &got[0] != &largest[0] {
		t.Fatal("a buffer of maxKeptSegBuf bytes was not kept, or one larger was")
	}
	for i := 0; i < keepSegBufs+2; i++ {
		putSegBuf(make([]byte, 1))
	}
	if n := drain(); n != keepSegBufs {
		t.Fatalf("kept %d buffers, want %d", n, keepSegBufs)
	}
	// Encode takes its slots from segBufs and gives them all back.
	v := testVolume(t)
	var st memStore
	p := Params{K: 2, M: 1, SegmentSize: MinSegmentSize}
	for _, size := range []int{3*MinSegmentSize + 1, 2 * MinSegmentSize} { // the last segment short; none short
		if _, err := Encode(context.Background(), v, "a", p, bytes.NewReader(randBytes(size, 14)), 1, st.place); err != nil {
			t.Fatal(err)
		}
		if n := drain(); n != 1+Uploads+1 {
			t.Fatalf("size %d: %d buffers back after Encode, want its %d slots", size, n, 1+Uploads+1)
		}
	}
}
