package node

import (
	"encoding/hex"
	"fmt"

	"github.com/cowboy-chain/cowboy/chain/system/staking"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/consensus/simplex"
)

// evidenceVotes turns the consensus's double-signing evidence into the two
// votes the validator registry judges (v2 "Slashing": double signing is
// jail + slash 1%): the same signer and round, different blocks at one
// height or at two heights.
func (ep *epoch) evidenceVotes(e simplex.Evidence) (a, b *staking.Vote, err error) {
	if e.Signer < 0 || e.Signer >= len(ep.members) {
		return nil, nil, fmt.Errorf("evidence names validator %d of %d", e.Signer, len(ep.members))
	}
	who := ep.members[e.Signer]
	a = &staking.Vote{Height: e.HeightA, Round: e.Round, BlockHash: e.BlockA, Validator: who, Signature: e.SignatureA}
	b = &staking.Vote{Height: e.HeightB, Round: e.Round, BlockHash: e.BlockB, Validator: who, Signature: e.SignatureB}
	return a, b, nil
}

// reportEvidence submits double-signing evidence to the registry, signed
// with this node's key (anyone may submit; the fee is the submitter's).
// Each (validator, round) is submitted once per process. When the node's
// account cannot pay, or the registry would refuse it, the payload is
// logged so that an operator can send it with "cowboy validator evidence".
func (n *Node) reportEvidence(e simplex.Evidence) {
	net := n.net
	key := [2]uint64{uint64(e.Signer), e.Round}
	if net.reported[key] {
		return
	}
	net.reported[key] = true
	a, b, err := net.ep.evidenceVotes(e)
	if err != nil {
		n.log.Warn("double signing seen", "validator", e.Signer, "round", e.Round, "err", err)
		return
	}
	payload := staking.EvidencePayload(a, b)
	log := n.log.With("validator", a.Validator, "height", a.Height, "round", a.Round)
	from := n.proposer
	est, err := n.EstimateFees(&from, &staking.Address, nil, payload)
	if err == nil {
		var nonce uint64
		if nonce, err = n.PendingNonce(from); err == nil {
			to := staking.Address
			tx := &types.Tx{ChainID: n.cfg.ChainID, Nonce: nonce, To: &to, CyclesLimit: est.CyclesLimit, CellsLimit: est.CellsLimit,
				MaxFeePerCycle: est.MaxFeePerCycle, MaxFeePerCell: est.MaxFeePerCell,
				TipPerCycle: est.TipPerCycle, TipPerCell: est.TipPerCell, Payload: payload}
			tx.Sign(n.cfg.Network.Keys.Node)
			if err = n.SendTransaction(tx); err == nil {
				log.Warn("double signing seen; evidence submitted", "tx", tx.Hash())
				return
			}
		}
	}
	log.Warn("double signing seen; evidence not submitted by this node", "err", err,
		"payload", "0x"+hex.EncodeToString(payload))
}

// reportInvalidProposal submits evidence of a proposal this node refused
// (v2 "Slashing": invalid block proposal, jail without slash) when the
// fault is one the registry can judge from the block alone
// (staking.CheckProposalPayload); other refusals (a payload time ahead of
// this node's clock) are this node's view and are only logged. Each
// (proposer, round) is reported once per process.
func (n *Node) reportInvalidProposal(b *simplex.Block, why error) {
	net := n.net
	log := n.log.With("proposer", b.Proposer, "height", b.Height, "round", b.Round, "why", why)
	if staking.CheckProposalPayload(b.Payload) == nil {
		log.Warn("proposal refused")
		return
	}
	key := [2]uint64{1<<63 | uint64(b.Proposer), b.Round}
	sig := net.sx.ProposalSignature(b)
	if net.reported[key] || sig == nil || b.Proposer < 0 || b.Proposer >= len(net.ep.members) {
		return
	}
	net.reported[key] = true
	ev := &staking.Proposal{Parent: types.Hash(b.Parent), Height: b.Height, Round: b.Round, Proposer: uint64(b.Proposer),
		Payload: b.Payload, VRFProof: b.VRFProof, Validator: net.ep.members[b.Proposer], Signature: sig}
	if _, err := n.sendRegistryTx(staking.InvalidProposalPayload(ev)); err != nil {
		log.Warn("invalid proposal; evidence not submitted by this node", "err", err)
		return
	}
	log.Warn("invalid proposal; evidence submitted", "validator", ev.Validator)
}
