package node

import (
	"bytes"
	"errors"
	"fmt"
	"math/big"

	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/store"
)

// Impersonation (dev_impersonate): on the devnet, a transaction can be sent
// as any address without its key, to test what an account you do not hold
// (a whale, a multisig, a system actor's caller) would do. The node builds
// the transaction with the sender's pending nonce and the fee estimate,
// and signs it with a marker instead of an ECDSA signature:
//
//	y_parity 0, r = keccak256("cowboy/devnet-impersonation/v1"),
//	s = the sender's 20 bytes, left-padded to 32
//
// It caches the sender on the transaction (types.Tx.SetSender), records
// it under devImpKey in the store, and queues it in the mempool like any
// other; it pays its fees from the impersonated account. The marker
// recovers to no meaningful key, so wherever the node decodes the block
// again (after a restart, for a trace) it restores the sender from the
// record, and only for transactions it made itself (devSenders): a
// transaction from elsewhere that carries the marker gets nothing from it.
// A validator network refuses impersonation with the other controls.

// impersonationR is the marker signature's r.
var impersonationR = crypto.Keccak256([]byte("cowboy/devnet-impersonation/v1"))

// DevImpersonate queues a transaction from `from`, signed with the
// marker, and returns its hash; the devnet mines it as usual.
func (n *Node) DevImpersonate(from types.Address, to *types.Address, value *big.Int, payload []byte) (types.Hash, error) {
	if err := n.devOnly("dev_impersonate"); err != nil {
		return types.Hash{}, err
	}
	if value == nil {
		value = new(big.Int)
	}
	if payload == nil {
		payload = []byte{}
	}
	est, err := n.EstimateFees(&from, to, value, payload)
	if err != nil {
		return types.Hash{}, fmt.Errorf("dev_impersonate: %w", err)
	}
	nonce, err := n.PendingNonce(from)
	if err != nil {
		return types.Hash{}, err
	}
	tx := &types.Tx{ChainID: n.cfg.ChainID, Nonce: nonce, To: to, Value: value, CyclesLimit: est.CyclesLimit, CellsLimit: est.CellsLimit,
		MaxFeePerCycle: est.MaxFeePerCycle, MaxFeePerCell: est.MaxFeePerCell, TipPerCycle: est.TipPerCycle, TipPerCell: est.TipPerCell,
		Payload: payload, Sig: &types.Signature{R: impersonationR}}
	copy(tx.Sig.S[12:], from[:])
	tx.SetSender(from)
	h := tx.Hash()
	if err := n.db.PutRaw([]store.RawWrite{{Key: devImpKey(h), Value: from[:]}}); err != nil {
		return types.Hash{}, fmt.Errorf("dev_impersonate: record %s: %w", h, err)
	}
	if err := n.SendTransaction(tx); err != nil {
		return types.Hash{}, err
	}
	return h, nil
}

// devSenders restores the senders of the impersonated transactions among
// txs, decoded from a stored block: those with the marker signature that
// this devnet recorded as its own.
func (n *Node) devSenders(txs []*types.Tx) {
	if n.net != nil {
		return
	}
	for _, tx := range txs {
		if tx.Sig == nil || tx.Sig.R != impersonationR {
			continue
		}
		rec, err := n.db.GetRaw(devImpKey(tx.Hash()))
		if err != nil || len(rec) != len(types.Address{}) || !bytes.Equal(rec, tx.Sig.S[12:]) {
			if err != nil && !errors.Is(err, store.ErrNotFound) {
				n.log.Warn("impersonation record", "tx", tx.Hash(), "err", err)
			}
			continue
		}
		tx.SetSender(types.Address(rec))
	}
}
