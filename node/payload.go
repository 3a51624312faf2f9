package node

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/fxamacker/cbor/v2"

	"github.com/cowboy-chain/cowboy/chain/types"
)

// Limits of a consensus payload. The consensus topic carries a proposal of
// at most 4 MiB + 64 KiB (p2p.DefaultLimits); the payload stays well below.
const (
	// maxPayloadBytes bounds the transactions' encoded size in one payload.
	maxPayloadBytes = 3 << 20
	// maxFutureDrift is how far ahead of the voter's own clock a payload's
	// time may be for the voter to call it valid (docs/consensus.md
	// "Consensus wiring"): 15 s, Ethereum's old future-block allowance.
	maxFutureDriftSeconds = 15
)

// payload is what a simplex block carries on a multi-validator chain: the
// proposer's candidate transactions, the block time and the epoch anchor.
// Canonical CBOR:
//
//	payload = [time (unix seconds, uint), [tx, ...], anchor (32 bytes)]
//
// each tx in its own canonical encoding (types.Tx.Encode). The anchor is
// the hash of the executed header of the epoch's root block (the last
// block of the epoch before; genesis for epoch 0): every validator of the
// epoch has executed that block before its instance starts, so it can
// check the anchor without waiting, and a certificate of any block of the
// epoch then commits to that header's state root, which is what lets a
// light client prove the next epoch's set and beacon key from genesis
// (docs/decisions.md "Epoch anchors"). The candidates
// are not executed by the proposer: every node executes the block once it
// is final, skipping invalid transactions (docs/decisions.md "Consensus
// wiring": execute after finality).
type payload struct {
	Time   uint64
	Txs    []*types.Tx
	Anchor types.Hash
}

type payloadWire struct {
	_      struct{} `cbor:",toarray"`
	Time   uint64
	Txs    []cbor.RawMessage
	Anchor types.Hash
}

func (p *payload) encode() ([]byte, error) {
	w := payloadWire{Time: p.Time, Txs: make([]cbor.RawMessage, len(p.Txs)), Anchor: p.Anchor}
	for i, tx := range p.Txs {
		w.Txs[i] = tx.Encode()
	}
	b, err := types.Marshal(&w)
	if err != nil {
		return nil, fmt.Errorf("encode payload: %w", err)
	}
	return b, nil
}

// decodePayload parses a payload and refuses any encoding that is not the
// canonical one, so one payload has exactly one byte string.
func decodePayload(b []byte) (*payload, error) {
	if len(b) > maxPayloadBytes+64<<10 {
		return nil, fmt.Errorf("decode payload: %d bytes", len(b))
	}
	var w payloadWire
	if err := types.Unmarshal(b, &w); err != nil {
		return nil, fmt.Errorf("decode payload: %w", err)
	}
	p := &payload{Time: w.Time, Txs: make([]*types.Tx, len(w.Txs)), Anchor: w.Anchor}
	for i, raw := range w.Txs {
		tx, err := types.DecodeTx(raw)
		if err != nil {
			return nil, fmt.Errorf("decode payload: tx %d: %w", i, err)
		}
		p.Txs[i] = tx
	}
	again, err := p.encode()
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(again, b) {
		return nil, errors.New("decode payload: not the canonical encoding")
	}
	return p, nil
}
