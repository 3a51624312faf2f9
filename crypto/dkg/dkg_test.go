package dkg

import (
	"bytes"
	"errors"
	"fmt"
	"math/big"
	mrand "math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/crypto/bls"
)

type member struct {
	sk *bls.SecretKey
	pk *bls.PublicKey
}

func members(t testing.TB, n int) ([]member, []*bls.PublicKey) {
	t.Helper()
	ms := make([]member, n)
	pks := make([]*bls.PublicKey, n)
	for i := range ms {
		seed := make([]byte, 32)
		seed[0], seed[1] = byte(i), byte(i>>8)
		sk, err := bls.GenerateKey(seed)
		if err != nil {
			t.Fatal(err)
		}
		ms[i] = member{sk, sk.PublicKey()}
		pks[i] = ms[i].pk
	}
	return ms, pks
}

// outcome runs the receive, complain, qualify and finish steps for every
// member over the given dealings and returns the result and each member's
// share keys.
func outcome(t testing.TB, c *Config, ms []member, dealings []*Dealing) (*Result, []map[uint64]*bls.SecretKey, []*Complaint, error) {
	t.Helper()
	received := make([]map[int]map[uint64]*big.Int, len(ms))
	var complaints []*Complaint
	for i := range ms {
		received[i] = map[int]map[uint64]*big.Int{}
		for _, d := range dealings {
			if d == nil {
				continue
			}
			shares, cp, err := c.Receive(i, ms[i].sk, d)
			if err != nil {
				continue // malformed: everyone sees it, no complaint
			}
			if cp != nil {
				complaints = append(complaints, cp)
				continue
			}
			received[i][d.Dealer] = shares
		}
	}
	q, err := c.Qualify(dealings, complaints)
	if err != nil {
		return nil, nil, complaints, err
	}
	res, err := c.Finish(dealings, q)
	if err != nil {
		t.Fatal(err)
	}
	keys := make([]map[uint64]*bls.SecretKey, len(ms))
	for i := range ms {
		keys[i], err = c.SecretShares(i, received[i], q)
		if err != nil {
			t.Fatal(err)
		}
	}
	return res, keys, complaints, nil
}

func deal(t testing.TB, c *Config, seed int64) []*Dealing {
	t.Helper()
	rng := mrand.New(mrand.NewSource(seed))
	ds := make([]*Dealing, len(c.Members))
	for i := range ds {
		d, err := c.Deal(i, rng)
		if err != nil {
			t.Fatal(err)
		}
		ds[i] = d
	}
	return ds
}

// checkBeacon signs msg with the shares of the given members, combines and
// checks the result against the group key, and that the signature does
// not depend on which members signed.
func checkBeacon(t *testing.T, c *Config, res *Result, keys []map[uint64]*bls.SecretKey, signers []int) *bls.Signature {
	t.Helper()
	msg := []byte("cowboy/beacon/test")
	var xs []uint64
	var ps []*bls.Signature
	for _, i := range signers {
		for _, x := range c.Alloc.Shares[i] {
			sk := keys[i][x]
			if !sk.PublicKey().Equal(res.PublicShares[x-1]) {
				t.Fatalf("member %d share %d does not match its public share", i, x)
			}
			p := sk.Sign(msg)
			if !bls.Verify(res.PublicShares[x-1], msg, p) {
				t.Fatalf("partial %d does not verify", x)
			}
			xs, ps = append(xs, x), append(ps, p)
		}
	}
	sig, err := bls.CombinePartials(xs[:c.Alloc.Threshold], ps[:c.Alloc.Threshold])
	if err != nil {
		t.Fatal(err)
	}
	if !bls.Verify(res.GroupKey, msg, sig) {
		t.Fatal("combined signature does not verify against the group key")
	}
	return sig
}

func TestHonestRun(t *testing.T) {
	for _, n := range []int{1, 4, 7} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			ms, pks := members(t, n)
			stakes := make([]uint64, n)
			for i := range stakes {
				stakes[i] = 100
			}
			c, err := NewConfig(3, pks, stakes)
			if err != nil {
				t.Fatal(err)
			}
			res, keys, complaints, err := outcome(t, c, ms, deal(t, c, 1))
			if err != nil {
				t.Fatal(err)
			}
			if len(complaints) != 0 || len(res.Qualified) != n {
				t.Fatalf("honest run: %d complaints, %d qualified", len(complaints), len(res.Qualified))
			}
			all := make([]int, n)
			for i := range all {
				all[i] = i
			}
			a := checkBeacon(t, c, res, keys, all)
			// Any other quorum gives the same signature.
			rev := make([]int, n)
			for i := range rev {
				rev[i] = n - 1 - i
			}
			if b := checkBeacon(t, c, res, keys, rev); !a.Equal(b) {
				t.Fatal("two quorums combined different signatures")
			}
		})
	}
}

// RunLocal, the honest protocol on one machine, gives shares that match
// the public result and combine to a signature of the group key.
func TestRunLocal(t *testing.T) {
	ms, pks := members(t, 5)
	c, err := NewConfig(9, pks, []uint64{3, 1, 4, 1, 5})
	if err != nil {
		t.Fatal(err)
	}
	sks := make([]*bls.SecretKey, len(ms))
	for i := range ms {
		sks[i] = ms[i].sk
	}
	res, shares, err := c.RunLocal(sks, mrand.New(mrand.NewSource(3)))
	if err != nil {
		t.Fatal(err)
	}
	keys := make([]map[uint64]*bls.SecretKey, len(ms))
	for i := range ms {
		keys[i] = map[uint64]*bls.SecretKey{}
		for k, x := range c.Alloc.Shares[i] {
			keys[i][x] = shares[i][k]
		}
	}
	checkBeacon(t, c, res, keys, []int{4, 3, 2, 1, 0})
}

func TestMisbehavingDealers(t *testing.T) {
	ms, pks := members(t, 7)
	stakes := []uint64{10, 10, 10, 10, 10, 10, 10}
	c, err := NewConfig(1, pks, stakes)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		corrupt func(ds []*Dealing)
		out     []int // dealers that must not qualify
		fails   bool
	}{
		{"bad share to member 4", func(ds []*Dealing) { ds[2].Ciphertexts[c.Alloc.Shares[4][0]-1][31] ^= 1 }, []int{2}, false},
		{"share above the group order", func(ds []*Dealing) {
			ct := ds[5].Ciphertexts[c.Alloc.Shares[0][0]-1]
			for i := range ct {
				ct[i] = 0xff
			}
		}, []int{5}, false},
		{"silent dealer", func(ds []*Dealing) { ds[1] = nil }, []int{1}, false},
		{"equivocating dealer: another polynomial's shares to half the members", func(ds []*Dealing) {
			other, err := c.Deal(4, mrand.New(mrand.NewSource(99)))
			if err != nil {
				t.Fatal(err)
			}
			// Members 3.. get the other dealing's ciphertexts: opened with
			// the published ephemeral key they match no published
			// commitment, so those members complain and prove it.
			for i := 3; i < 7; i++ {
				for _, x := range c.Alloc.Shares[i] {
					ds[4].Ciphertexts[x-1] = other.Ciphertexts[x-1]
				}
			}
		}, []int{4}, false},
		{"malformed commitments", func(ds []*Dealing) { ds[6].Commitments = ds[6].Commitments[:1] }, []int{6}, false},
		{"dealing under another name", func(ds []*Dealing) { ds[3] = ds[0] }, []int{3}, false},
		{"three out of seven", func(ds []*Dealing) {
			ds[0], ds[1] = nil, nil
			ds[2].Ciphertexts[0][0] ^= 1
		}, []int{0, 1, 2}, true},
	}
	for k, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ds := deal(t, c, int64(10+k))
			tc.corrupt(ds)
			res, keys, _, err := outcome(t, c, ms, ds)
			if tc.fails {
				if !errors.Is(err, ErrNotQualified) {
					t.Fatalf("err = %v, want ErrNotQualified", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range tc.out {
				for _, q := range res.Qualified {
					if q == d {
						t.Fatalf("dealer %d qualified", d)
					}
				}
			}
			if len(res.Qualified) != 7-len(tc.out) {
				t.Fatalf("qualified %v", res.Qualified)
			}
			checkBeacon(t, c, res, keys, []int{6, 5, 4, 3, 2, 1, 0})
		})
	}
}

func TestComplaintsAreJudged(t *testing.T) {
	ms, pks := members(t, 4)
	c, err := NewConfig(2, pks, []uint64{1, 1, 1, 1})
	if err != nil {
		t.Fatal(err)
	}
	ds := deal(t, c, 5)
	ds[1].Ciphertexts[c.Alloc.Shares[3][0]-1][0] ^= 0x40
	_, cp, err := c.Receive(3, ms[3].sk, ds[1])
	if err != nil || cp == nil {
		t.Fatalf("no complaint about a bad share: %v", err)
	}
	if err := c.Judge(ds[1], cp); err != nil {
		t.Fatalf("founded complaint refused: %v", err)
	}
	// A complaint about a correct dealing, with the true key: unfounded.
	honest, _ := ms[2].sk.SharedKey(mustKey(t, ds[0].Ephemeral))
	proof, err := proveDLEQ(ms[2].sk, mustKey(t, ds[0].Ephemeral), honest)
	if err != nil {
		t.Fatal(err)
	}
	false1 := &Complaint{Dealer: 0, Complainer: 2, SharedKey: honest, Proof: proof}
	if err := c.Judge(ds[0], false1); !errors.Is(err, ErrBadComplaint) {
		t.Fatalf("complaint against an honest dealer: %v", err)
	}
	// A made-up shared key (which would decrypt to garbage) fails its proof.
	fake := ms[0].pk.Bytes()
	forged := &Complaint{Dealer: 0, Complainer: 2, SharedKey: fake, Proof: proof}
	if err := c.Judge(ds[0], forged); !errors.Is(err, ErrBadComplaint) {
		t.Fatalf("forged key accepted: %v", err)
	}
	// The proof is bound to the complainer.
	stolen := &Complaint{Dealer: 1, Complainer: 2, SharedKey: cp.SharedKey, Proof: cp.Proof}
	if err := c.Judge(ds[1], stolen); !errors.Is(err, ErrBadComplaint) {
		t.Fatalf("complaint with another member's proof accepted: %v", err)
	}
	q, err := c.Qualify(ds, []*Complaint{false1, forged, stolen, cp})
	if err != nil || len(q) != 3 || q[0] != 0 || q[1] != 2 {
		t.Fatalf("qualified %v (%v), want [0 2 3]", q, err)
	}
}

func mustKey(t *testing.T, b []byte) *bls.PublicKey {
	t.Helper()
	pk, err := bls.PublicKeyFromBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	return pk
}

// TestAllocation checks the allocation's promises by brute force over
// every subset of small member sets.
func TestAllocation(t *testing.T) {
	cases := [][]uint64{
		{1},
		{5, 5},
		{1, 1, 1, 1},
		{1, 1, 1, 97},
		{10, 20, 30, 40},
		{3, 3, 3, 3, 3, 3, 3},
		{100, 1, 1, 1, 1, 1, 1, 1, 1, 1},
		{7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47},
		{1 << 62, 1 << 62, 1 << 62, 1},
	}
	for _, stakes := range cases {
		t.Run(fmt.Sprint(stakes), func(t *testing.T) {
			a, err := Allocate(stakes)
			if err != nil {
				t.Fatal(err)
			}
			total := new(big.Int)
			for _, s := range stakes {
				total.Add(total, new(big.Int).SetUint64(s))
			}
			got := 0
			for _, xs := range a.Shares {
				got += len(xs)
			}
			if got != a.Total || a.Threshold < 1 || a.Threshold > a.Total {
				t.Fatalf("%d shares allocated of %d, threshold %d", got, a.Total, a.Threshold)
			}
			for set := 0; set < 1<<len(stakes); set++ {
				st, sh := new(big.Int), 0
				for i := range stakes {
					if set&(1<<i) != 0 {
						st.Add(st, new(big.Int).SetUint64(stakes[i]))
						sh += len(a.Shares[i])
					}
				}
				three := new(big.Int).Mul(st, big.NewInt(3))
				quorum := three.Cmp(new(big.Int).Lsh(total, 1)) > 0
				byz := three.Cmp(total) < 0
				if quorum && sh < a.Threshold {
					t.Fatalf("quorum %b holds %d shares < threshold %d", set, sh, a.Threshold)
				}
				if byz && sh >= a.Threshold {
					t.Fatalf("set %b under 1/3 of the stake holds %d shares ≥ threshold %d", set, sh, a.Threshold)
				}
				if a.Exact && !quorum && sh >= a.Threshold {
					t.Fatalf("non-quorum %b reaches the threshold though Exact", set)
				}
			}
			t.Logf("total %d threshold %d exact %v", a.Total, a.Threshold, a.Exact)
		})
	}
	if _, err := Allocate(nil); err == nil {
		t.Fatal("empty set allocated")
	}
	if _, err := Allocate([]uint64{1, 0}); err == nil {
		t.Fatal("zero stake allocated")
	}
}

func benchmarkDKG(b *testing.B, n int) {
	ms, pks := members(b, n)
	stakes := make([]uint64, n)
	for i := range stakes {
		stakes[i] = uint64(100 + i)
	}
	c, err := NewConfig(1, pks, stakes)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, _, err := outcome(b, c, ms, deal(b, c, int64(i))); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(c.Alloc.Total), "shares")
}

// BenchmarkDKG runs the whole protocol for every member on one core: n
// dealings, n×n openings, qualification and the public result.
func BenchmarkDKG4(b *testing.B)  { benchmarkDKG(b, 4) }
func BenchmarkDKG16(b *testing.B) { benchmarkDKG(b, 16) }
func BenchmarkDKG64(b *testing.B) { benchmarkDKG(b, 64) }

// TestQualifyStored: for dealings that passed CheckDealing, QualifyStored
// computes what Qualify and Finish compute (qualified set, group key,
// every public share), with silent dealers and with too few dealers.
func TestQualifyStored(t *testing.T) {
	_, pks := members(t, 7)
	c, err := NewConfig(4, pks, []uint64{3, 1, 4, 1, 5, 9, 2})
	if err != nil {
		t.Fatal(err)
	}
	all := deal(t, c, 11)
	for _, tc := range []struct {
		name   string
		silent []int
	}{{"everyone", nil}, {"two silent", []int{1, 6}}, {"too few", []int{2, 4, 5}}} {
		t.Run(tc.name, func(t *testing.T) {
			ds := append([]*Dealing(nil), all...)
			for _, i := range tc.silent {
				ds[i] = nil
			}
			got, gerr := c.QualifyStored(ds)
			q, werr := c.Qualify(ds, nil)
			if (gerr == nil) != (werr == nil) {
				t.Fatalf("QualifyStored: %v, Qualify: %v", gerr, werr)
			}
			if werr != nil {
				if !errors.Is(gerr, ErrNotQualified) {
					t.Fatalf("QualifyStored: %v", gerr)
				}
				return
			}
			want, err := c.Finish(ds, q)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.Qualified, want.Qualified) || !got.GroupKey.Equal(want.GroupKey) || len(got.PublicShares) != len(want.PublicShares) {
				t.Fatalf("qualified %v key %x, want %v %x", got.Qualified, got.GroupKey.Bytes(), want.Qualified, want.GroupKey.Bytes())
			}
			for x := range want.PublicShares {
				if !got.PublicShares[x].Equal(want.PublicShares[x]) {
					t.Fatalf("public share %d differs", x+1)
				}
			}
		})
	}
}

// TestOpenStored: a member's share keys rebuilt from the stored dealings
// and the public result are the ones Receive and SecretShares give; a
// qualified dealer whose share to the member is bad is named.
func TestOpenStored(t *testing.T) {
	ms, pks := members(t, 5)
	c, err := NewConfig(6, pks, []uint64{3, 1, 4, 1, 5})
	if err != nil {
		t.Fatal(err)
	}
	ds := deal(t, c, 21)
	res, keys, _, err := outcome(t, c, ms, ds)
	if err != nil {
		t.Fatal(err)
	}
	for me := range ms {
		got, err := c.OpenStored(me, ms[me].sk, ds, res.PublicShares)
		if err != nil {
			t.Fatalf("member %d: %v", me, err)
		}
		if len(got) != len(keys[me]) {
			t.Fatalf("member %d: %d shares, want %d", me, len(got), len(keys[me]))
		}
		for x, k := range keys[me] {
			if !bytes.Equal(got[x].Bytes(), k.Bytes()) {
				t.Fatalf("member %d share %d differs", me, x)
			}
		}
	}
	ds[3].Ciphertexts[c.Alloc.Shares[1][0]-1][31] ^= 1
	if _, err := c.OpenStored(1, ms[1].sk, ds, res.PublicShares); err == nil || !strings.Contains(err.Error(), "dealer 3") {
		t.Fatalf("a bad share from dealer 3: %v", err)
	}
}
