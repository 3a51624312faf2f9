package staking

import (
	"bytes"
	"math/big"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/types"
)

// TestInitBeaconOpenFails: InitBeacon reports a DKG(1) it cannot open (a
// validator record that does not decode) instead of leaving the chain
// without one.
func TestInitBeaconOpenFails(t *testing.T) {
	e := newEnv(t, 4)
	e.st.Set(validatorKey(addr(1)), []byte{0xff})
	g := blsKey(t, 50).PublicKey().Bytes()
	if err := InitBeacon(e.st, g, [][]byte{g, g, g, g}); err == nil {
		t.Fatal("InitBeacon opened DKG(1) over a corrupt validator record")
	}
}

// TestSameMembers: two member lists are the same only with the same
// addresses, keys and weights in order; the weight is the stake in whole
// CBY when a member has one, else its Weight field.
func TestSameMembers(t *testing.T) {
	k1, k2 := []byte{1}, []byte{2}
	m := func(a byte, key []byte, stake *big.Int, w uint64) Member {
		return Member{Address: addr(a), BLSPublicKey: key, Stake: stake, Weight: w}
	}
	for _, c := range []struct {
		name string
		a, b []Member
		want bool
	}{
		{"equal", []Member{m(1, k1, cby(2000), 0)}, []Member{m(1, k1, cby(2000), 0)}, true},
		{"stake in whole CBY", []Member{m(1, k1, new(big.Int).Add(cby(2000), big.NewInt(5)), 0)}, []Member{m(1, k1, cby(2000), 0)}, true},
		{"another stake", []Member{m(1, k1, cby(2000), 0)}, []Member{m(1, k1, cby(3000), 0)}, false},
		{"stake against weight", []Member{m(1, k1, cby(2000), 0)}, []Member{m(1, k1, nil, 2000)}, true},
		{"another weight", []Member{m(1, k1, nil, 2000)}, []Member{m(1, k1, nil, 2001)}, false},
		{"another key", []Member{m(1, k1, cby(2000), 0)}, []Member{m(1, k2, cby(2000), 0)}, false},
		{"another address", []Member{m(1, k1, cby(2000), 0)}, []Member{m(2, k1, cby(2000), 0)}, false},
		{"another length", []Member{m(1, k1, cby(2000), 0)}, nil, false},
	} {
		if got := sameMembers(c.a, c.b); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// TestProposalBounds: a transaction of exactly max_tx_size is within the
// payload rules, and the proposer index must fit 32 bits (2^32 − 1 does).
func TestProposalBounds(t *testing.T) {
	var tx *types.Tx
	for n := types.MaxTxSize - 200; ; {
		tx = signedTx(t)
		tx.Payload = bytes.Repeat([]byte{0x40}, n)
		size := tx.Size()
		if size == types.MaxTxSize {
			break
		}
		n += types.MaxTxSize - size
	}
	if err := CheckProposalPayload(payloadOf(t, tx.Encode())); err != nil {
		t.Fatalf("a transaction of exactly max_tx_size: %v", err)
	}

	e := newEnv(t, 4)
	for _, c := range []struct {
		proposer uint64
		want     string
	}{{1 << 32, "does not fit 32 bits"}, {1<<32 - 1, "not signed by"}} {
		p := proposal(t, 1, []byte{0xff}, 5, 7)
		p.Proposer = c.proposer
		failsCleanly(t, e, addr(10), new(big.Int), InvalidProposalPayload(p), 20, c.want)
		// Charged a signature check and ProposalByteCycles per payload byte.
		payload := InvalidProposalPayload(p)
		res, _ := Apply(e.st, Call{From: addr(10), Value: new(big.Int), Payload: payload, Height: 20, Cycles: 10_000_000})
		if want := CallCycles + BLSVerifyCycles + ProposalByteCycles*uint64(len(payload)); res.CyclesUsed != want {
			t.Fatalf("invalid_proposal used %d cycles, want %d", res.CyclesUsed, want)
		}
	}
}
