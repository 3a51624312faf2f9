package simplex

import (
	"bytes"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/crypto/bls"
)

// TestVerifyCertified: a certificate by a quorum of the set verifies; a
// block altered after it was certified, a certificate of another height or
// round, a signer bitmap too long, signers holding 2/3 of the stake or
// less, and signatures by keys outside the set are refused.
func TestVerifyCertified(t *testing.T) {
	var sks []*bls.SecretKey
	var vs []Validator
	for i, stake := range []uint64{1, 1, 1, 3} {
		sk, err := bls.GenerateKey(bytes.Repeat([]byte{byte(i + 1)}, 32))
		if err != nil {
			t.Fatal(err)
		}
		sks = append(sks, sk)
		vs = append(vs, Validator{PublicKey: sk.PublicKey().Bytes(), Possession: sk.ProvePossession().Bytes(), Stake: stake})
	}
	set, err := NewValidatorSet(vs)
	if err != nil {
		t.Fatal(err)
	}
	scheme, err := NewBLSScheme(nil, set)
	if err != nil {
		t.Fatal(err)
	}
	outsider, _ := bls.GenerateKey(bytes.Repeat([]byte{99}, 32))
	certify := func(b *Block, signers []int, bad bool) Certified {
		msg := VoteMessage(b.Hash(), b.Height, b.Round)
		bm := NewBitmap(set.Len())
		var sigs [][]byte
		for _, i := range signers {
			bm.Set(i)
			sk := sks[i]
			if bad {
				sk = outsider
			}
			sigs = append(sigs, sk.Sign(msg).Bytes())
		}
		agg, err := scheme.Aggregate(sigs)
		if err != nil {
			t.Fatal(err)
		}
		return Certified{Block: b, QC: &QC{BlockHash: b.Hash(), Height: b.Height, Round: b.Round, Signature: agg, Signers: bm}}
	}
	block := func() *Block { return &Block{Parent: Hash{1}, Height: 7, Round: 9, Proposer: 3, Payload: []byte("p")} }
	for _, tc := range []struct {
		name string
		c    func() Certified
		want string
	}{
		{"quorum", func() Certified { return certify(block(), []int{0, 1, 3}, false) }, ""},
		{"altered block", func() Certified {
			c := certify(block(), []int{0, 1, 2, 3}, false)
			c.Block.Payload = []byte("q")
			return c
		}, "block's id"},
		{"other round", func() Certified { c := certify(block(), []int{0, 1, 3}, false); c.QC.Round++; return c }, "round"},
		{"long bitmap", func() Certified {
			c := certify(block(), []int{0, 1, 3}, false)
			c.QC.Signers = append(c.QC.Signers, 0)
			return c
		}, "bitmap"},
		{"half the stake", func() Certified { return certify(block(), []int{3}, false) }, "2/3"},
		{"two thirds exactly", func() Certified { return certify(block(), []int{0, 3}, false) }, "2/3"},
		{"outside keys", func() Certified { return certify(block(), []int{0, 1, 3}, true) }, "aggregate"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := VerifyCertified(set, scheme, tc.c())
			if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
		})
	}
}
