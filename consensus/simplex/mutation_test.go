package simplex

import (
	"bytes"
	"testing"

	"github.com/cowboy-chain/cowboy/crypto/bls"
)

// TestQCRandomness checks what a certificate says about its block's
// randomness: none without a certificate or without σ, and
// BeaconOutput(σ) with one.
func TestQCRandomness(t *testing.T) {
	sigma := []byte{1, 2, 3}
	for _, c := range []struct {
		name string
		qc   *QC
		ok   bool
	}{
		{"no certificate", nil, false},
		{"no beacon", &QC{}, false},
		{"an empty beacon", &QC{Beacon: []byte{}}, false},
		{"a beacon", &QC{Beacon: sigma}, true},
	} {
		r, ok := c.qc.Randomness()
		if ok != c.ok {
			t.Errorf("%s: ok = %v", c.name, ok)
		}
		want := [32]byte{}
		if c.ok {
			want = BeaconOutput(sigma)
		}
		if r != want {
			t.Errorf("%s: randomness %x, want %x", c.name, r, want)
		}
	}
}

// TestBeaconRefusesAnIndexOutsideTheSet checks a node given share keys
// under a validator index outside the set is refused with an error, at
// both ends, and accepted at the set's last index.
func TestBeaconRefusesAnIndexOutsideTheSet(t *testing.T) {
	var sks []*bls.SecretKey
	var vs []Validator
	for i := range 2 {
		sk, _ := bls.GenerateKey(bytes.Repeat([]byte{byte(20 + i)}, 32))
		sks = append(sks, sk)
		vs = append(vs, Validator{PublicKey: sk.PublicKey().Bytes(), Stake: 1})
	}
	set, err := NewValidatorSet(vs)
	if err != nil {
		t.Fatal(err)
	}
	key, mine, err := DealBeacon(set, sks)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		me int
		ok bool
	}{{-1, false}, {0, true}, {1, true}, {2, false}} {
		shares := mine[max(0, min(c.me, 1))]
		if _, err := NewBLSBeacon(set, key, c.me, shares); (err == nil) != c.ok {
			t.Errorf("index %d of a set of 2: err = %v", c.me, err)
		}
	}
	// A validator index outside the set has no shares and no valid
	// partials, whatever it sends.
	b, err := NewBLSBeacon(set, key, 0, mine[0])
	if err != nil {
		t.Fatal(err)
	}
	msg := VoteMessage(Hash{5}, 1, 1)
	ps := b.Partials(msg)
	for _, c := range []struct {
		i     int
		valid bool
	}{{-1, false}, {0, true}, {1, false}, {2, false}} {
		if n := b.Shares(c.i); (n > 0) != (c.i == 0 || c.i == 1) {
			t.Errorf("Shares(%d) = %d", c.i, n)
		}
		if got := b.VerifyPartials(c.i, msg, ps); got != c.valid {
			t.Errorf("VerifyPartials(%d) of validator 0's partials = %v", c.i, got)
		}
	}
	// Partials listed beyond the set's members are ignored when combining.
	b1, err := NewBLSBeacon(set, key, 1, mine[1])
	if err != nil {
		t.Fatal(err)
	}
	both := [][][]byte{ps, b1.Partials(msg)}
	want, err := b.Combine(both)
	if err != nil || !b.Verify(msg, want) {
		t.Fatalf("combine both members: %v", err)
	}
	got, err := b.Combine(append(both, ps, ps))
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("combine with partials beyond the set: %x, %v; want %x", got, err, want)
	}
}

// countBeacon is a BeaconScheme whose σ is the number of partials it was
// combined from, so a test sees which signers' partials counted.
type countBeacon struct {
	shares []int
	t      int
}

func (b countBeacon) Partials([]byte) [][]byte                  { return nil }
func (b countBeacon) Shares(i int) int                          { return b.shares[i] }
func (b countBeacon) Threshold() int                            { return b.t }
func (b countBeacon) VerifyPartials(int, []byte, [][]byte) bool { return true }
func (b countBeacon) Verify([]byte, []byte) bool                { return true }
func (b countBeacon) Combine(ps [][][]byte) ([]byte, error) {
	n := 0
	for _, p := range ps {
		n += len(p)
	}
	return []byte{byte(n)}, nil
}

// TestCollectorBeaconAtThreshold checks when votes' partials give σ: as
// soon as the signers whose partials are complete hold exactly the
// threshold, and never from a signer that sent the wrong number.
func TestCollectorBeaconAtThreshold(t *testing.T) {
	p := func(n int) [][]byte { return make([][]byte, n) }
	for _, c := range []struct {
		name   string
		b      countBeacon
		adds   [][][]byte // partials of signers 0, 1, …
		sigma  bool
		shares int // partials σ was combined from
	}{
		{"below the threshold", countBeacon{[]int{1, 1, 1}, 2}, [][][]byte{p(1)}, false, 0},
		{"exactly the threshold", countBeacon{[]int{1, 1, 1}, 2}, [][][]byte{p(1), p(1)}, true, 2},
		{"weighted exactly", countBeacon{[]int{2, 1, 1}, 3}, [][][]byte{p(2), p(1)}, true, 3},
		{"a wrong count is ignored", countBeacon{[]int{2, 1, 1}, 3}, [][][]byte{p(1), p(1), p(1)}, false, 0},
	} {
		col := newCollector(len(c.b.shares))
		for i, ps := range c.adds {
			col.add(i, []byte{1}, ps)
		}
		sigma, ok := col.beacon(c.b, []byte("m"))
		if ok != c.sigma || (ok && int(sigma[0]) != c.shares) {
			t.Errorf("%s: σ %v (%x), want %v from %d partials", c.name, ok, sigma, c.sigma, c.shares)
		}
	}
}

// TestSchemeRefusesAnIndexOutsideTheSet checks a signature or VRF proof
// claimed for a validator index outside the set is refused (not a crash),
// at both ends, while the same bytes verify under the signer's index.
func TestSchemeRefusesAnIndexOutsideTheSet(t *testing.T) {
	sk, _ := bls.GenerateKey(bytes.Repeat([]byte{31}, 32))
	set, err := NewValidatorSet([]Validator{{PublicKey: sk.PublicKey().Bytes(), Stake: 1}})
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewBLSSchemeRegistered(sk, set)
	if err != nil {
		t.Fatal(err)
	}
	msg := []byte("vote")
	sig := s.Sign(msg)
	_, proof := s.VRFProve(msg)
	for _, c := range []struct {
		i  int
		ok bool
	}{{-1, false}, {0, true}, {1, false}} {
		if got := s.Verify(c.i, msg, sig); got != c.ok {
			t.Errorf("Verify(%d) = %v", c.i, got)
		}
		if _, got := s.VRFVerify(c.i, msg, proof); got != c.ok {
			t.Errorf("VRFVerify(%d) = %v", c.i, got)
		}
		if got := s.VerifyAggregate([]int{c.i}, msg, sig); got != c.ok {
			t.Errorf("VerifyAggregate([%d]) = %v", c.i, got)
		}
	}
}

// TestBitmapHasOutsideItsRoom checks a signer bitmap answers false, not a
// crash, for an index outside the validators it has room for: a
// certificate naming validator n of an n-validator set is simply not
// signed by it.
func TestBitmapHasOutsideItsRoom(t *testing.T) {
	b := NewBitmap(8)
	for i := range 8 {
		b.Set(i)
	}
	for _, c := range []struct {
		i    int
		want bool
	}{{-1, false}, {0, true}, {7, true}, {8, false}, {15, false}, {16, false}} {
		if got := b.Has(c.i); got != c.want {
			t.Errorf("Has(%d) = %v on a full 8-validator bitmap", c.i, got)
		}
	}
}
