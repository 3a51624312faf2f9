package staking

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/fxamacker/cbor/v2"

	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto/bls"
)

// The "Invalid block proposal: Jail (no slash)" row of v2 "Slashing".
//
// Evidence is a consensus block as it was proposed and a validator's BLS
// signature on its vote message (a proposal's signature is its proposer's
// vote): CBOR [parent(32), height, round, proposer_index, payload,
// vrf_proof, validator_address(20), bls_signature(96)]. The registry
// recomputes the block id (types.ProposalHash), checks the signature
// against the validator's registered key and judges the payload by
// CheckProposalPayload, which needs nothing but the payload: anyone can
// check the evidence from the block and the rules. It covers
//
//   - a payload that is not the canonical CBOR [time, [tx…]] (including a
//     transaction that does not decode);
//   - a transaction larger than max_tx_size;
//   - a transaction whose signature recovers no sender.
//
// Honest validators refuse every such block before voting (node judge:
// the same decoding, then execution.CheckStateless), so a signature on
// one is a proposer's invalid proposal or a vote no honest validator
// casts; both jail. Invalidities that depend on state, the clock or the
// chain id (a payload time too far ahead, a transaction for another
// chain) are not covered. One jail per validator, height and round.

// ProposalByteCycles is what invalid-proposal evidence costs per byte of
// the call, on top of one BLS verification: a transaction's sender
// recovery is about a BLS verification per hundred bytes.
const ProposalByteCycles = 80

// MethodInvalidProposal is the registry call that reports an invalid
// proposal.
const MethodInvalidProposal = "invalid_proposal" // [ "invalid_proposal", proposal ]

// Proposal is the evidence of an invalid proposal.
type Proposal struct {
	_         struct{} `cbor:",toarray"`
	Parent    types.Hash
	Height    uint64
	Round     uint64
	Proposer  uint64
	Payload   []byte
	VRFProof  []byte
	Validator types.Address
	Signature []byte
}

// InvalidProposalPayload is the registry call ["invalid_proposal", p].
func InvalidProposalPayload(p *Proposal) []byte {
	return mustMarshal([]any{MethodInvalidProposal, p})
}

// proposalWire is the consensus payload's shape: [time, [tx…], anchor]
// (node/payload.go). Whether the anchor is the epoch's is not judged here:
// that needs the chain, not just the payload.
type proposalWire struct {
	_      struct{} `cbor:",toarray"`
	Time   uint64
	Txs    []cbor.RawMessage
	Anchor types.Hash
}

// ErrValidPayload is CheckProposalPayload's answer for a payload the
// evidence rules find nothing wrong with.
var ErrValidPayload = errors.New("the payload breaks none of the rules invalid-proposal evidence covers")

// CheckProposalPayload returns the rule a consensus payload breaks, or
// nil when it breaks none that invalid-proposal evidence covers.
func CheckProposalPayload(payload []byte) error {
	var w proposalWire
	if err := types.Unmarshal(payload, &w); err != nil {
		return fmt.Errorf("payload is not the CBOR array [time, [tx…], anchor]: %w", err)
	}
	enc := make([]cbor.RawMessage, len(w.Txs))
	for i, raw := range w.Txs {
		tx, err := types.DecodeTx(raw)
		if err != nil {
			return fmt.Errorf("payload tx %d does not decode: %w", i, err)
		}
		if n := tx.Size(); n > types.MaxTxSize {
			return fmt.Errorf("payload tx %d is %d bytes, max_tx_size is %d", i, n, types.MaxTxSize)
		}
		if _, err := tx.Sender(); err != nil {
			return fmt.Errorf("payload tx %d: signature recovers no sender: %w", i, err)
		}
		enc[i] = tx.Encode()
	}
	again, err := types.Marshal(&proposalWire{Time: w.Time, Txs: enc, Anchor: w.Anchor})
	if err != nil {
		return fmt.Errorf("re-encode payload: %w", err)
	}
	if !bytes.Equal(again, payload) {
		return errors.New("payload is not the canonical encoding")
	}
	return nil
}

// invalidProposal jails the signer of an invalid proposal.
func invalidProposal(st *state.StateDB, p Params, c Call, args []cbor.RawMessage) (map[string]any, error) {
	form := `["invalid_proposal", [parent, height, round, proposer_index, payload, vrf_proof, validator_address, bls_signature]]`
	if err := wantArgs(args, 1, form); err != nil {
		return nil, err
	}
	if err := noValue(c); err != nil {
		return nil, err
	}
	var pr Proposal
	if major(args[0]) != 4 {
		return nil, fmt.Errorf("proposal must be the array %s", form)
	}
	if err := types.Unmarshal(args[0], &pr); err != nil {
		return nil, fmt.Errorf("proposal: %w", err)
	}
	if pr.Proposer > 1<<32-1 {
		return nil, fmt.Errorf("proposal: proposer index %d does not fit 32 bits", pr.Proposer)
	}
	v, err := ReadValidator(st, pr.Validator)
	if err != nil {
		return nil, err
	}
	if v == nil {
		return nil, fmt.Errorf("%s is not a registered validator", pr.Validator)
	}
	pk := punishedKey(v.Address, pr.Height, pr.Round)
	if st.Get(pk) != nil {
		return nil, fmt.Errorf("%s was already punished for height %d round %d", v.Address, pr.Height, pr.Round)
	}
	key, err := bls.PublicKeyFromBytes(v.BLSPublicKey)
	if err != nil {
		return nil, fmt.Errorf("registered BLS key of %s: %w", v.Address, err)
	}
	sig, err := bls.SignatureFromBytes(pr.Signature)
	if err != nil {
		return nil, fmt.Errorf("proposal signature: %w", err)
	}
	h := types.ProposalHash(pr.Parent, pr.Height, pr.Round, uint32(pr.Proposer), pr.Payload, pr.VRFProof)
	if !bls.Verify(key, types.VoteMessage(h, pr.Height, pr.Round), sig) {
		return nil, fmt.Errorf("block %s is not signed by %s's registered BLS key", h, v.Address)
	}
	why := CheckProposalPayload(pr.Payload)
	if why == nil {
		return nil, ErrValidPayload
	}
	jail(v, c.Height, p)
	st.Set(pk, []byte{1})
	return map[string]any{"validator": v.Address.Hex(), "jail_until": v.JailUntil, "height": pr.Height, "round": pr.Round,
		"block": h, "rule": why.Error(), "reporter": c.From.Hex()}, writeValidator(st, v)
}
