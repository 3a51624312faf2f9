package simplex

import (
	"bytes"
	"strings"
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

// TestLeaderScheduleVector pins the leader of rounds 1-12 for one set and
// seed: every node must compute the same leader (v2 §6.1), so a change to
// the draw (which rounds draw freely, which exclude their neighbours) is
// a fork with nodes that still run the old rule.
func TestLeaderScheduleVector(t *testing.T) {
	set, err := NewValidatorSet([]Validator{{Stake: 10}, {Stake: 20}, {Stake: 30}, {Stake: 40}})
	if err != nil {
		t.Fatal(err)
	}
	want := []int{1, 2, 1, 3, 1, 3, 1, 3, 1, 2, 3, 2}
	for r := uint64(1); r <= 12; r++ {
		if got := set.Leader([32]byte{7}, r); got != want[r-1] {
			t.Errorf("round %d: leader %d, want %d", r, got, want[r-1])
		}
	}
}

// TestStakeThresholdEdges checks the one-third rule is strict (v2 §6.1:
// more than 1/3 of the stake) and a signer bitmap naming a validator the
// set does not have is not a valid bitmap.
func TestStakeThresholdEdges(t *testing.T) {
	set, err := NewValidatorSet([]Validator{{Stake: 1}, {Stake: 1}, {Stake: 1}})
	if err != nil {
		t.Fatal(err)
	}
	bm := func(is ...int) Bitmap {
		b := NewBitmap(3)
		for _, i := range is {
			b.Set(i)
		}
		return b
	}
	if set.IsOneThird(bm(0)) {
		t.Error("exactly one third of the stake counted as more than a third")
	}
	if !set.IsOneThird(bm(0, 1)) {
		t.Error("two thirds of the stake not counted as more than a third")
	}
	for _, c := range []struct {
		name string
		b    Bitmap
		ok   bool
	}{
		{"all three", bm(0, 1, 2), true},
		{"a fourth validator", func() Bitmap { b := bm(0); b.Set(3); return b }(), false},
		{"the last bit of the byte", func() Bitmap { b := bm(); b.Set(7); return b }(), false},
		{"a byte too many", append(bm(0), 0), false},
	} {
		if got := set.validBitmap(c.b); got != c.ok {
			t.Errorf("%s: valid = %v", c.name, got)
		}
	}
}

// TestFetchReplyBlockLimit checks a message may carry at most
// MaxFetchBlocks blocks: exactly that many decode, one more is refused.
func TestFetchReplyBlockLimit(t *testing.T) {
	for _, c := range []struct {
		n  int
		ok bool
	}{{MaxFetchBlocks, true}, {MaxFetchBlocks + 1, false}} {
		bs := make([]*Block, c.n)
		for i := range bs {
			bs[i] = &Block{Height: uint64(i + 1), Round: uint64(i + 1)}
		}
		raw, err := EncodeMessage(Message{Type: MsgBlock, From: 0, Blocks: bs})
		if err != nil {
			t.Fatal(err)
		}
		m, err := DecodeMessage(raw, 1)
		if (err == nil) != c.ok || (c.ok && len(m.Blocks) != c.n) {
			t.Errorf("%d blocks: err = %v", c.n, err)
		}
	}
}

// TestCertificateStringsOfNil checks the log forms of absent certificates.
func TestCertificateStringsOfNil(t *testing.T) {
	var q *QC
	var tc *TC
	if q.String() != "<nil>" || tc.String() != "<nil>" {
		t.Errorf("nil QC %q, nil TC %q", q.String(), tc.String())
	}
	q = &QC{Height: 3, Round: 4, Signers: NewBitmap(2)}
	tc = &TC{Round: 9, Signers: NewBitmap(2)}
	if !strings.Contains(q.String(), "h=3 r=4") || !strings.Contains(tc.String(), "r=9") {
		t.Errorf("QC %q, TC %q", q.String(), tc.String())
	}
}
