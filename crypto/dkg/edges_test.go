package dkg

import (
	"bytes"
	"errors"
	"fmt"
	"math/big"
	mrand "math/rand"
	"testing"
)

// TestMemberIndexEdges: every call that takes a member or dealer index
// accepts the first (0) and refuses one past the last (len(Members)) with
// an error, never a panic or a wrong answer.
func TestMemberIndexEdges(t *testing.T) {
	ms, pks := members(t, 4)
	c, err := NewConfig(9, pks, []uint64{1, 1, 1, 1})
	if err != nil {
		t.Fatal(err)
	}
	n := len(pks)
	ds := deal(t, c, 3)
	res, err := c.QualifyStored(ds)
	if err != nil {
		t.Fatal(err)
	}
	past := *ds[0]
	past.Dealer = n
	for _, tc := range []struct {
		name string
		call func() error
		want error // nil: any error
	}{
		{"Deal past the last member", func() error { _, err := c.Deal(n, mrand.New(mrand.NewSource(1))); return err }, nil},
		{"CheckDealing with a dealer past the last", func() error { return c.CheckDealing(&past) }, ErrBadDealing},
		{"Receive as a member past the last", func() error { _, _, err := c.Receive(n, ms[0].sk, ds[0]); return err }, nil},
		{"Judge a complaint by a member past the last", func() error {
			// A well-formed shared key, so that only the index refuses it.
			return c.Judge(ds[1], &Complaint{Dealer: 1, Complainer: n, SharedKey: pks[0].Bytes(), Proof: make([]byte, 64)})
		}, ErrBadComplaint},
		{"SecretShares for a member past the last", func() error { _, err := c.SecretShares(n, nil, nil); return err }, nil},
		{"OpenStored as a member past the last", func() error { _, err := c.OpenStored(n, ms[0].sk, ds, res.PublicShares); return err }, nil},
		{"OpenStored with a dealing from a dealer past the last", func() error {
			_, err := c.OpenStored(0, ms[0].sk, []*Dealing{ds[0], &past}, res.PublicShares)
			return err
		}, ErrBadDealing},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call()
			if err == nil || (tc.want != nil && !errors.Is(err, tc.want)) {
				t.Fatalf("err %v, want %v", err, tc.want)
			}
		})
	}
	// A complaint naming a dealer past the last is ignored, not a panic.
	if q, err := c.Qualify(ds, []*Complaint{{Dealer: n, Complainer: 0}}); err != nil || len(q) != n {
		t.Fatalf("qualified %v, %v", q, err)
	}
	// Dealer 0 and member 0 are members like any other.
	if _, err := c.Deal(0, mrand.New(mrand.NewSource(1))); err != nil {
		t.Fatal(err)
	}
	if _, cp, err := c.Receive(0, ms[0].sk, ds[0]); err != nil || cp != nil {
		t.Fatalf("member 0 receiving dealer 0: complaint %v, %v", cp, err)
	}
}

// TestComplaintAgainstDealerZero: a proven complaint against dealer 0
// puts it out, as against any other dealer.
func TestComplaintAgainstDealerZero(t *testing.T) {
	ms, pks := members(t, 4)
	c, err := NewConfig(2, pks, []uint64{1, 1, 1, 1})
	if err != nil {
		t.Fatal(err)
	}
	ds := deal(t, c, 5)
	bad := *ds[0]
	bad.Ciphertexts = append([][]byte(nil), ds[0].Ciphertexts...)
	x := c.Alloc.Shares[1][0]
	ct := bytes.Clone(bad.Ciphertexts[x-1])
	ct[31] ^= 1 // member 1's share no longer matches the commitments
	bad.Ciphertexts[x-1] = ct
	ds[0] = &bad
	if err := c.CheckDealing(&bad); err != nil {
		t.Fatalf("the corrupted dealing should still be well formed: %v", err)
	}
	_, cp, err := c.Receive(1, ms[1].sk, &bad)
	if err != nil || cp == nil || cp.Dealer != 0 {
		t.Fatalf("member 1: complaint %+v, %v", cp, err)
	}
	if err := c.Judge(&bad, cp); err != nil {
		t.Fatalf("judge: %v", err)
	}
	q, err := c.Qualify(ds, []*Complaint{cp})
	if err != nil || fmt.Sprint(q) != "[1 2 3]" {
		t.Fatalf("qualified %v, %v; want [1 2 3]", q, err)
	}
}

// TestQuorumBoundary: the qualified dealers must hold strictly more than
// 2/3 of the stake; exactly 2/3 fails, in Qualify and in QualifyStored.
func TestQuorumBoundary(t *testing.T) {
	_, pks := members(t, 3)
	c, err := NewConfig(1, pks, []uint64{5, 5, 5})
	if err != nil {
		t.Fatal(err)
	}
	ds := deal(t, c, 8)
	for _, tc := range []struct {
		name     string
		dealings []*Dealing
		ok       bool
	}{
		{"all three", ds, true},
		{"two of three: exactly 2/3", []*Dealing{ds[0], ds[1], nil}, false},
		{"two of three, dealer 0 silent", []*Dealing{nil, ds[1], ds[2]}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.Qualify(tc.dealings, nil)
			_, errStored := c.QualifyStored(tc.dealings)
			for _, e := range []error{err, errStored} {
				if (e == nil) != tc.ok || (e != nil && !errors.Is(e, ErrNotQualified)) {
					t.Fatalf("Qualify %v, QualifyStored %v; want ok %v", err, errStored, tc.ok)
				}
			}
		})
	}
}

// TestDealIsReproducible: a dealing depends only on the randomness given,
// so the same seed gives the same dealing (genesis files are written so).
func TestDealIsReproducible(t *testing.T) {
	_, pks := members(t, 3)
	c, err := NewConfig(1, pks, []uint64{1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	a, err := c.Deal(1, mrand.New(mrand.NewSource(42)))
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.Deal(1, mrand.New(mrand.NewSource(42)))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Ephemeral, b.Ephemeral) || fmt.Sprint(a.Commitments) != fmt.Sprint(b.Commitments) || fmt.Sprint(a.Ciphertexts) != fmt.Sprint(b.Ciphertexts) {
		t.Fatal("two dealings from the same seed differ")
	}
	if _, err := c.Deal(1, nil); err != nil { // crypto/rand
		t.Fatal(err)
	}
}

// TestAllocationExact pins the allocation of small stake sets: the share
// count tried first is the member count, then doubled up to four times it
// (while at most MaxShares); the first exact one is taken; shares are split
// by largest remainder, equal remainders to the lower member index.
func TestAllocationExact(t *testing.T) {
	for _, tc := range []struct {
		stakes    []uint64
		counts    []int
		threshold int
		exact     bool
	}{
		{[]uint64{5, 5}, []int{1, 1}, 2, true},
		{[]uint64{1, 1, 1, 1}, []int{1, 1, 1, 1}, 3, true},
		{[]uint64{1, 1, 1, 97}, []int{0, 0, 0, 4}, 4, true},
		// S = 4 and 8 are not exact; 16 = 4n is.
		{[]uint64{10, 20, 30, 40}, []int{2, 3, 5, 6}, 11, true},
		// 16 shares by 1:1:1:3 give 2, 2, 2, 8 and two remainders of 4/6
		// to hand out among three equal ones: members 0 and 1 get them.
		{[]uint64{1, 1, 1, 3}, []int{3, 3, 2, 8}, 13, true},
		{[]uint64{2, 10, 20}, []int{1, 4, 7}, 8, true},
		// No share count up to 4n is exact: the first valid one, 2n.
		{[]uint64{1 << 62, 1 << 62, 1 << 62, 1}, []int{3, 3, 2, 0}, 5, false},
	} {
		t.Run(fmt.Sprint(tc.stakes), func(t *testing.T) {
			a, err := Allocate(tc.stakes)
			if err != nil {
				t.Fatal(err)
			}
			var counts []int
			for _, xs := range a.Shares {
				counts = append(counts, len(xs))
			}
			if fmt.Sprint(counts) != fmt.Sprint(tc.counts) || a.Threshold != tc.threshold || a.Exact != tc.exact {
				t.Fatalf("counts %v threshold %d exact %v; want %v %d %v", counts, a.Threshold, a.Exact, tc.counts, tc.threshold, tc.exact)
			}
			// Brute force over every subset: the threshold is one more than
			// the most shares a set under 1/3 of the stake holds, and
			// NonQuorumMax the most a set of at most 2/3 holds.
			total := new(big.Int)
			for _, s := range tc.stakes {
				total.Add(total, new(big.Int).SetUint64(s))
			}
			m, nq := 0, 0
			for set := 0; set < 1<<len(tc.stakes); set++ {
				st, sh := new(big.Int), 0
				for i := range tc.stakes {
					if set&(1<<i) != 0 {
						st.Add(st, new(big.Int).SetUint64(tc.stakes[i]))
						sh += counts[i]
					}
				}
				three := new(big.Int).Mul(st, big.NewInt(3))
				if three.Cmp(total) < 0 && sh > m {
					m = sh
				}
				if three.Cmp(new(big.Int).Lsh(total, 1)) <= 0 && sh > nq {
					nq = sh
				}
			}
			if a.Threshold != a.Total-m || a.NonQuorumMax != nq {
				t.Fatalf("threshold %d nonquorum %d; brute force %d %d", a.Threshold, a.NonQuorumMax, a.Total-m, nq)
			}
			for x := uint64(1); x <= uint64(a.Total); x++ {
				if o := a.Owner(x); o < 0 || !containsIndex(a.Shares[o], x) {
					t.Fatalf("share %d owned by %d", x, o)
				}
			}
			if a.Owner(0) != -1 || a.Owner(uint64(a.Total)+1) != -1 {
				t.Fatal("an index outside 1..Total has an owner")
			}
		})
	}
}

func containsIndex(xs []uint64, x uint64) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// TestAllocationPastMaxShares: a member set larger than MaxShares still
// gets an allocation, one share each (S = n), since doubling is capped.
func TestAllocationPastMaxShares(t *testing.T) {
	st := make([]uint64, MaxShares+1)
	for i := range st {
		st[i] = 1
	}
	a, err := Allocate(st)
	if err != nil || a.Total != MaxShares+1 {
		t.Fatalf("allocation %+v, %v", a, err)
	}
}

// TestAllocationUpToMaxShares: the doubling reaches MaxShares itself. 255
// members of stake 1 and one of 510 (exactly 2/3): the allocation is exact
// only when every small member holds a share, which first happens at
// S = 4n = 1024 = MaxShares. With 511 + 1 members the cap stops the
// doubling at 1024 = 2n, which is not exact, so the first valid count (n)
// is kept.
func TestAllocationUpToMaxShares(t *testing.T) {
	for _, tc := range []struct {
		n                    int
		total, threshold, nq int
		exact                bool
	}{
		// S = 1024: the big member's quota 682.67 takes the largest
		// remainder (683); 86 of the small ones get a second share.
		{256, MaxShares, 684, 683, true},
		{512, 512, 341, 341, false},
	} {
		st := make([]uint64, tc.n)
		for i := range st {
			st[i] = 1
		}
		st[tc.n-1] = 2 * uint64(tc.n-1)
		a, err := Allocate(st)
		if err != nil {
			t.Fatalf("n=%d: %v", tc.n, err)
		}
		if a.Total != tc.total || a.Threshold != tc.threshold || a.NonQuorumMax != tc.nq || a.Exact != tc.exact {
			t.Fatalf("n=%d: total %d threshold %d nonquorum %d exact %v; want %d %d %d %v",
				tc.n, a.Total, a.Threshold, a.NonQuorumMax, a.Exact, tc.total, tc.threshold, tc.nq, tc.exact)
		}
	}
}
