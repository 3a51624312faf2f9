package rpc

import (
	"context"
	"errors"
)

// CertificateJSON is cowboy_getCertificate's result: the finalized
// consensus block of a height with the certificate (QC) that certifies it,
// in the consensus encoding (simplex.EncodeCertified: [block, qc]). A
// client checks it against the validator set it trusts for the block's
// epoch (the QC's round >> 32): the aggregate signature of a stake quorum
// on the block's vote message, and σ under the epoch's beacon key.
type CertificateJSON struct {
	Height      Quantity `json:"height"`
	Certificate Bytes    `json:"certificate"`
}

// EpochProofJSON is cowboy_getEpochProof's result: the executed header of
// epoch k's root block (the last block of epoch k−1; genesis for epoch 0),
// which every proposal of epoch k names in its payload (the anchor), and
// store proofs against that header's state root of the two registry
// records a light client needs (docs/decisions.md "Epoch anchors"):
// EpochBeacon(k), the epoch's beacon key, and DKG(k+1)'s member list, the
// next epoch's validator set. A value null is proven absent.
type EpochProofJSON struct {
	Epoch            Quantity `json:"epoch"`
	Header           Bytes    `json:"header"` // canonical CBOR of the root's header
	BeaconRecord     *Bytes   `json:"beaconRecord"`
	BeaconProof      Bytes    `json:"beaconProof"` // store/verifier encoding
	NextMembers      *Bytes   `json:"nextMembers"`
	NextMembersProof Bytes    `json:"nextMembersProof"`
}

// CertificateReporter is what a consensus node offers for
// cowboy_getCertificate and cowboy_getEpochProof; a backend without it (a
// devnet) answers -32601.
type CertificateReporter interface {
	// Certificate is the finalized block of height and its QC; unknown:
	// an error wrapping ErrNotFound.
	Certificate(height uint64) (*CertificateJSON, error)
	// EpochProof is epoch's anchor header and record proofs; unknown
	// (not reached, or entered before this node kept them): an error
	// wrapping ErrNotFound.
	EpochProof(epoch uint64) (*EpochProofJSON, error)
}

func certificateReporter(b Backend, method string) (CertificateReporter, *Error) {
	r, ok := b.(CertificateReporter)
	if !ok {
		return nil, newError(CodeMethodNotFound, "method %s is not served by this node", method)
	}
	return r, nil
}

// getCertificate takes a height (0x-hex quantity).
func getCertificate(_ context.Context, b Backend, p *params) (any, *Error) {
	r, perr := certificateReporter(b, "cowboy_getCertificate")
	if perr != nil {
		return nil, perr
	}
	var q Quantity
	if err := p.decode(0, "height", &q); err != nil {
		return nil, p.bad(0, "height", err)
	}
	out, err := r.Certificate(uint64(q))
	if errors.Is(err, ErrNotFound) {
		return nil, newError(CodeNotFound, "no finalized consensus block at height %s", q)
	}
	if err != nil {
		return nil, internal(err)
	}
	return out, nil
}

// getEpochProof takes an epoch number (0x-hex quantity).
func getEpochProof(_ context.Context, b Backend, p *params) (any, *Error) {
	r, perr := certificateReporter(b, "cowboy_getEpochProof")
	if perr != nil {
		return nil, perr
	}
	var q Quantity
	if err := p.decode(0, "epoch", &q); err != nil {
		return nil, p.bad(0, "epoch", err)
	}
	out, err := r.EpochProof(uint64(q))
	if errors.Is(err, ErrNotFound) {
		return nil, newError(CodeNotFound, "no anchor proofs for epoch %s on this node", q)
	}
	if err != nil {
		return nil, internal(err)
	}
	return out, nil
}

// Certificate calls cowboy_getCertificate.
func (c *Client) Certificate(ctx context.Context, height uint64) (*CertificateJSON, error) {
	out := new(CertificateJSON)
	if err := c.Call(ctx, out, "cowboy_getCertificate", Quantity(height)); err != nil {
		return nil, err
	}
	return out, nil
}

// EpochProof calls cowboy_getEpochProof.
func (c *Client) EpochProof(ctx context.Context, epoch uint64) (*EpochProofJSON, error) {
	out := new(EpochProofJSON)
	if err := c.Call(ctx, out, "cowboy_getEpochProof", Quantity(epoch)); err != nil {
		return nil, err
	}
	return out, nil
}
