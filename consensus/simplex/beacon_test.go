package simplex

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/cowboy-chain/cowboy/crypto/bls"
)

// Every finalized block of a beacon epoch carries σ in its certificate,
// σ verifies against the group key (checked in handleReady), every node
// finalizes each height with the same R, and R differs across heights.
func TestBeaconEveryBlock(t *testing.T) {
	cases := []struct {
		name       string
		stakes     []uint64
		behaviours map[int]behaviour
		ticks      int
		min        int
	}{
		{"four, unequal stake", []uint64{10, 20, 30, 40}, nil, 40, 10},
		{"seven, two withhold partials", []uint64{1, 1, 1, 1, 1, 1, 1}, map[int]behaviour{1: noPartials, 4: noPartials}, 80, 10},
		{"seven, two send bad partials", []uint64{1, 1, 1, 1, 1, 1, 1}, map[int]behaviour{2: badPartials, 6: badPartials}, 80, 10},
		{"seven, an equivocator and a bad-partial sender", []uint64{1, 1, 1, 1, 1, 1, 1}, map[int]behaviour{0: equivocator, 3: badPartials}, 120, 10},
		{"four, one silent", []uint64{1, 1, 1, 1}, map[int]behaviour{3: silent}, 200, 5},
	}
	for k, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newCluster(t, clusterOpts{stakes: tc.stakes, seed: uint64(11 + k), bls: true, beacon: true, timeoutTicks: 12, behaviours: tc.behaviours})
			c.wire = true
			c.run(tc.ticks)
			c.checkAgreement()
			if h := c.minFinal(); h < tc.min {
				t.Fatalf("finalized only %d blocks in %d ticks, want %d", h, tc.ticks, tc.min)
			}
			seen := map[[32]byte]uint64{}
			for h, r := range c.randAt {
				if o, ok := seen[r]; ok {
					t.Fatalf("heights %d and %d have the same randomness", o, h)
				}
				seen[r] = h
			}
			if len(c.randAt) < tc.min {
				t.Fatalf("randomness recorded for %d heights", len(c.randAt))
			}
		})
	}
}

// A one-member group (the devnet) is the validator's own key: σ is its
// partial, which it can compute alone (predictable by that validator).
func TestOneMemberBeacon(t *testing.T) {
	sk, _ := bls.GenerateKey(bytes.Repeat([]byte{9}, 32))
	set, _ := NewValidatorSet([]Validator{{PublicKey: sk.PublicKey().Bytes(), Stake: 1}})
	key, mine, err := DealBeacon(set, []*bls.SecretKey{sk})
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewBLSBeacon(set, key, 0, mine[0])
	if err != nil {
		t.Fatal(err)
	}
	if b.Threshold() != 1 || b.Shares(0) != 1 {
		t.Fatalf("threshold %d, shares %d", b.Threshold(), b.Shares(0))
	}
	msg := VoteMessage(Hash{3}, 1, 1)
	sigma, err := b.Combine([][][]byte{b.Partials(msg)})
	if err != nil || !b.Verify(msg, sigma) {
		t.Fatalf("one-member σ: %v", err)
	}
	if _, err := NewBLSBeacon(set, key, 0, [][]byte{bytes.Repeat([]byte{1}, 32)}); err == nil {
		t.Fatal("a share key that does not match its public share was accepted")
	}
}

// A certificate whose σ is missing, forged or copied from another block
// is refused, and so is one with σ in an epoch without a beacon key.
func TestBeaconRefusesForgedSigma(t *testing.T) {
	c := newCluster(t, clusterOpts{stakes: []uint64{1, 1, 1, 1}, seed: 3, bls: true, beacon: true, timeoutTicks: 12})
	c.run(20)
	sn := c.nodes[0]
	if len(sn.final) < 4 {
		t.Fatalf("finalized %d blocks", len(sn.final))
	}
	var qcs []*QC
	for _, h := range sn.final[1:3] {
		b := sn.disk[h]
		child := (*Block)(nil)
		for _, x := range sn.disk {
			if x.Parent == h {
				child = x
			}
		}
		if b == nil || child == nil {
			t.Fatal("no certified child on disk")
		}
		qcs = append(qcs, child.Justify)
	}
	good := qcs[0]
	if err := VerifyBeacon(sn.cfg.Beacon, good); err != nil {
		t.Fatal(err)
	}
	forge := func(beacon []byte) *QC { q := *good; q.Beacon = beacon; return &q }
	bad := []struct {
		name string
		qc   *QC
	}{
		{"missing", forge(nil)},
		{"another block's", forge(qcs[1].Beacon)},
		{"garbage", forge(bytes.Repeat([]byte{1}, 96))},
		{"a partial", forge(c.schemes[1].Sign(VoteMessage(good.BlockHash, good.Height, good.Round)))},
	}
	for _, b := range bad {
		if err := VerifyBeacon(sn.cfg.Beacon, b.qc); err == nil {
			t.Errorf("%s σ verified", b.name)
		}
		// A fresh node (which knows no certificate yet) refuses it in a
		// NEW_VIEW.
		fresh, err := NewNode(Config{ID: 2, Validators: c.set, Scheme: c.schemes[2], Genesis: c.genesis, Beacon: sn.cfg.Beacon, TimeoutTicks: 12})
		if err != nil {
			t.Fatal(err)
		}
		m := Message{Type: MsgNewView, From: 1, To: 2, Round: 1, Signature: c.schemes[1].Sign(NewViewMessage(1)), QC: b.qc}
		if err := fresh.Step(m); err == nil {
			t.Errorf("%s σ accepted in a NEW_VIEW", b.name)
		}
		// A node that knows the certificate refuses a copy with another σ.
		if err := sn.node.Step(m); err == nil && b.qc.Round >= sn.node.Status().Round-16 {
			t.Errorf("%s σ accepted by a node that knows the certificate", b.name)
		}
	}
	if err := VerifyBeacon(nil, good); err == nil {
		t.Error("σ accepted in an epoch without a beacon key")
	}
}

// BenchmarkBeacon measures the per-block cost of the beacon for n equal
// validators: combining the threshold of partials into σ (the leader's
// work), and verifying σ against the group key (everyone's, full nodes
// and light clients included).
func BenchmarkBeacon(b *testing.B) {
	for _, n := range []int{4, 16, 64} {
		stakes := make([]uint64, n)
		keys := make([]*bls.SecretKey, n)
		vs := make([]Validator, n)
		for i := range stakes {
			keys[i], _ = bls.GenerateKey(bytes.Repeat([]byte{byte(i + 1)}, 32))
			vs[i] = Validator{PublicKey: keys[i].PublicKey().Bytes(), Stake: 1}
		}
		set, _ := NewValidatorSet(vs)
		key, mine, err := DealBeacon(set, keys)
		if err != nil {
			b.Fatal(err)
		}
		beacons := make([]*BLSBeacon, n)
		for i := range beacons {
			if beacons[i], err = NewBLSBeacon(set, key, i, mine[i]); err != nil {
				b.Fatal(err)
			}
		}
		msg := VoteMessage(Hash{1}, 7, 9)
		parts := make([][][]byte, n)
		for i := range parts {
			parts[i] = beacons[i].Partials(msg)
		}
		sigma, err := beacons[0].Combine(parts)
		if err != nil || !beacons[0].Verify(msg, sigma) {
			b.Fatalf("combine: %v", err)
		}
		b.Run(fmt.Sprintf("combine/n=%d", n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := beacons[0].Combine(parts); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("verify/n=%d", n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if !beacons[0].Verify(msg, sigma) {
					b.Fatal("σ does not verify")
				}
			}
		})
		b.Run(fmt.Sprintf("partials/n=%d", n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				beacons[1].Partials(msg)
			}
		})
	}
}
