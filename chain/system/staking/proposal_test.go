package staking

import (
	"bytes"
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/fxamacker/cbor/v2"

	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
)

// payloadOf is a consensus payload [time, [tx…]] of raw transactions.
func payloadOf(t *testing.T, txs ...[]byte) []byte {
	t.Helper()
	raws := make([]cbor.RawMessage, len(txs))
	for i, b := range txs {
		raws[i] = b
	}
	b, err := types.Marshal(&proposalWire{Time: 1_700_000_000, Txs: raws})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func signedTx(t *testing.T) *types.Tx {
	t.Helper()
	k, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	to := addr(11)
	tx := &types.Tx{ChainID: 4242, To: &to, Value: big.NewInt(1), CyclesLimit: 100_000, CellsLimit: 1000,
		MaxFeePerCycle: 1, MaxFeePerCell: 1}
	tx.Sign(k)
	return tx
}

// TestCheckProposalPayload: the payload rules invalid-proposal evidence
// covers, each on its own, and a valid payload breaks none.
func TestCheckProposalPayload(t *testing.T) {
	good := signedTx(t)
	unsigned := signedTx(t)
	unsigned.Sig = &types.Signature{YParity: 0}
	big := signedTx(t)
	big.Payload = bytes.Repeat([]byte{0x40}, types.MaxTxSize)
	valid := payloadOf(t, good.Encode())
	for _, tt := range []struct {
		name    string
		payload []byte
		want    string
	}{
		{"valid", valid, ""},
		{"empty", payloadOf(t), ""},
		{"not CBOR", []byte{0xff, 0x00}, "not the CBOR array"},
		{"not canonical", append(append([]byte{}, valid...), 0x00), "not the CBOR array"},
		{"a transaction that does not decode", payloadOf(t, []byte{0x83, 1, 2, 3}), "does not decode"},
		{"a transaction whose signature recovers no sender", payloadOf(t, unsigned.Encode()), "recovers no sender"},
		{"a transaction above max_tx_size", payloadOf(t, big.Encode()), "max_tx_size"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckProposalPayload(tt.payload)
			if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
				t.Fatalf("got %v, want %q", err, tt.want)
			}
		})
	}
}

// proposal is validator i's signed proposal of payload at height, round.
func proposal(t *testing.T, i byte, payload []byte, height, round uint64) *Proposal {
	p := &Proposal{Parent: types.Hash{9}, Height: height, Round: round, Proposer: 2, Payload: payload, VRFProof: []byte{1, 2, 3}, Validator: addr(i)}
	h := types.ProposalHash(p.Parent, height, round, uint32(p.Proposer), payload, p.VRFProof)
	p.Signature = blsKey(t, i).Sign(types.VoteMessage(h, height, round)).Bytes()
	return p
}

// TestInvalidProposalJails: a validator's signed proposal whose payload
// breaks a covered rule jails it (no slash), once per height and round;
// a valid payload, a signature by another key or on another block, and
// an unregistered validator are refused and change nothing.
func TestInvalidProposalJails(t *testing.T) {
	e := newEnv(t, 4)
	bad := []byte{0xff}
	valid := payloadOf(t, signedTx(t).Encode())
	forged := proposal(t, 1, bad, 5, 7)
	forged.Signature = blsKey(t, 2).Sign(types.VoteMessage(types.Hash{}, 5, 7)).Bytes()
	moved := proposal(t, 1, bad, 5, 7)
	moved.Round = 8
	stranger := proposal(t, 1, bad, 5, 7)
	stranger.Validator = addr(9)
	for _, tt := range []struct {
		name string
		p    *Proposal
		want string
	}{
		{"valid payload", proposal(t, 1, valid, 5, 7), "breaks none"},
		{"another key's signature", forged, "not signed by"},
		{"signature on another round", moved, "not signed by"},
		{"unregistered validator", stranger, "not a registered validator"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			failsCleanly(t, e, addr(10), new(big.Int), InvalidProposalPayload(tt.p), 20, tt.want)
		})
	}
	stake := new(big.Int).Set(e.validator(addr(1)).Stake)
	res, err := Apply(e.st, Call{From: addr(10), Value: new(big.Int), Payload: InvalidProposalPayload(proposal(t, 1, bad, 5, 7)), Height: 20, Cycles: 1_000_000})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Events) != 1 || res.Events[0].Name != "JailedInvalidProposal" {
		t.Fatalf("events %+v", res.Events)
	}
	v := e.validator(addr(1))
	if !v.Jailed || v.JailUntil != 20+e.p.JailPeriod || v.Stake.Cmp(stake) != 0 {
		t.Fatalf("after evidence: jailed %v until %d, stake %s (was %s)", v.Jailed, v.JailUntil, v.Stake, stake)
	}
	failsCleanly(t, e, addr(10), new(big.Int), InvalidProposalPayload(proposal(t, 1, bad, 5, 7)), 21, "already punished")
	// Too few cycles for the payload's size: refused, all charged.
	_, err = Apply(e.st, Call{From: addr(10), Value: new(big.Int), Payload: InvalidProposalPayload(proposal(t, 2, bad, 5, 7)), Height: 21, Cycles: BLSVerifyCycles})
	if !errors.Is(err, ErrOutOfCycles) {
		t.Fatalf("short of cycles: %v", err)
	}
}
