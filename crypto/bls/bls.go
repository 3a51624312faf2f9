package bls

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/cowboy-chain/cowboy/crypto"
	blst "github.com/supranational/blst/bindings/go"
)

// Sizes of the encodings, in bytes.
const (
	SecretKeySize = 32 // big-endian scalar
	PublicKeySize = 48 // compressed G1 point
	SignatureSize = 96 // compressed G2 point
	// MinSeedSize is the least input keying material KeyGen accepts
	// (IETF BLS draft, KeyGen).
	MinSeedSize = 32
)

// Domain separation tags of the IETF proof-of-possession ciphersuite.
var (
	dstSign = []byte("BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_")
	dstPoP  = []byte("BLS_POP_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_")
)

// Errors callers can test for.
var (
	ErrShortSeed      = errors.New("bls: seed shorter than 32 bytes")
	ErrBadSecretKey   = errors.New("bls: invalid secret key")
	ErrBadPublicKey   = errors.New("bls: invalid public key")
	ErrBadSignature   = errors.New("bls: invalid signature")
	ErrEmptyAggregate = errors.New("bls: nothing to aggregate")
)

// SecretKey is a validator's signing scalar.
type SecretKey struct{ sk blst.SecretKey }

// PublicKey is a validated G1 point (on the curve, in the subgroup, not the
// identity).
type PublicKey struct{ p blst.P1Affine }

// Signature is a G2 point; decoding checks it is in the subgroup.
type Signature struct{ s blst.P2Affine }

// GenerateKey derives a secret key from seed with the IETF KeyGen (HKDF over
// SHA-256), so a key is reproducible from its seed and the same seed always
// gives the same key on every platform.
func GenerateKey(seed []byte) (*SecretKey, error) {
	if len(seed) < MinSeedSize {
		return nil, fmt.Errorf("generate key from %d-byte seed: %w", len(seed), ErrShortSeed)
	}
	sk := blst.KeyGen(seed)
	if sk == nil {
		return nil, fmt.Errorf("generate key: %w", ErrBadSecretKey)
	}
	return &SecretKey{sk: *sk}, nil
}

// SecretKeyFromBytes decodes a 32-byte big-endian scalar; zero and values
// at or above the group order are refused.
func SecretKeyFromBytes(b []byte) (*SecretKey, error) {
	if len(b) != SecretKeySize {
		return nil, fmt.Errorf("decode secret key of %d bytes: %w", len(b), ErrBadSecretKey)
	}
	var sk blst.SecretKey
	if sk.Deserialize(b) == nil || !sk.Valid() {
		return nil, fmt.Errorf("decode secret key: %w", ErrBadSecretKey)
	}
	return &SecretKey{sk: sk}, nil
}

// Bytes is the 32-byte big-endian scalar.
func (k *SecretKey) Bytes() []byte { return k.sk.Serialize() }

// PublicKey is sk·G1.
func (k *SecretKey) PublicKey() *PublicKey {
	var p blst.P1Affine
	p.From(&k.sk)
	return &PublicKey{p: p}
}

// Sign signs msg under the message ciphersuite. BLS signatures are
// deterministic: one key and one message give exactly one signature, which
// is what lets the VRF package hash a signature into a random output.
func (k *SecretKey) Sign(msg []byte) *Signature {
	var s blst.P2Affine
	s.Sign(&k.sk, msg, dstSign)
	return &Signature{s: s}
}

// ProvePossession signs the key's own compressed public key under the
// proof-of-possession ciphersuite. Registering a key with this proof stops
// a rogue key pk' = x·G1 − pk from forging an aggregate with pk.
func (k *SecretKey) ProvePossession() *Signature {
	var s blst.P2Affine
	s.Sign(&k.sk, k.PublicKey().Bytes(), dstPoP)
	return &Signature{s: s}
}

// PublicKeyFromBytes decodes a compressed G1 point and refuses points off
// the curve, outside the subgroup or at infinity.
func PublicKeyFromBytes(b []byte) (*PublicKey, error) {
	if len(b) != PublicKeySize {
		return nil, fmt.Errorf("decode public key of %d bytes: %w", len(b), ErrBadPublicKey)
	}
	var p blst.P1Affine
	if p.Uncompress(b) == nil || !p.KeyValidate() {
		return nil, fmt.Errorf("decode public key: %w", ErrBadPublicKey)
	}
	return &PublicKey{p: p}, nil
}

// Bytes is the 48-byte compressed encoding.
func (pk *PublicKey) Bytes() []byte { return pk.p.Compress() }

// Equal reports whether two keys are the same point.
func (pk *PublicKey) Equal(o *PublicKey) bool { return pk.p.Equals(&o.p) }

// SignatureFromBytes decodes a compressed G2 point and refuses points
// outside the subgroup. The identity is accepted here (an aggregate may
// legitimately be anything) and fails every verification.
func SignatureFromBytes(b []byte) (*Signature, error) {
	if len(b) != SignatureSize {
		return nil, fmt.Errorf("decode signature of %d bytes: %w", len(b), ErrBadSignature)
	}
	var s blst.P2Affine
	if s.Uncompress(b) == nil || !s.SigValidate(false) {
		return nil, fmt.Errorf("decode signature: %w", ErrBadSignature)
	}
	return &Signature{s: s}, nil
}

// Bytes is the 96-byte compressed encoding.
func (s *Signature) Bytes() []byte { return s.s.Compress() }

// Equal reports whether two signatures are the same point.
func (s *Signature) Equal(o *Signature) bool { return s.s.Equals(&o.s) }

// Verify checks one signature on msg by pk.
func Verify(pk *PublicKey, msg []byte, sig *Signature) bool {
	if pk == nil || sig == nil {
		return false
	}
	// Points were group-checked when decoded or derived.
	return sig.s.Verify(false, &pk.p, false, msg, dstSign)
}

// VerifyPossession checks a proof made by ProvePossession.
func VerifyPossession(pk *PublicKey, proof *Signature) bool {
	if pk == nil || proof == nil {
		return false
	}
	return proof.s.Verify(false, &pk.p, false, pk.Bytes(), dstPoP)
}

// Aggregate adds signatures into one. Aggregating is plain point addition:
// the result verifies against the sum of the signers' public keys.
func Aggregate(sigs []*Signature) (*Signature, error) {
	if len(sigs) == 0 {
		return nil, fmt.Errorf("aggregate signatures: %w", ErrEmptyAggregate)
	}
	ps := make([]*blst.P2Affine, len(sigs))
	for i, s := range sigs {
		if s == nil {
			return nil, fmt.Errorf("aggregate signatures: signature %d is nil: %w", i, ErrBadSignature)
		}
		ps[i] = &s.s
	}
	var agg blst.P2Aggregate
	if !agg.Aggregate(ps, false) {
		return nil, fmt.Errorf("aggregate signatures: %w", ErrBadSignature)
	}
	return &Signature{s: *agg.ToAffine()}, nil
}

// AggregatePublicKeys adds public keys; the sum verifies an aggregate of
// signatures over one message.
func AggregatePublicKeys(pks []*PublicKey) (*PublicKey, error) {
	if len(pks) == 0 {
		return nil, fmt.Errorf("aggregate public keys: %w", ErrEmptyAggregate)
	}
	ps := make([]*blst.P1Affine, len(pks))
	for i, p := range pks {
		if p == nil {
			return nil, fmt.Errorf("aggregate public keys: key %d is nil: %w", i, ErrBadPublicKey)
		}
		ps[i] = &p.p
	}
	var agg blst.P1Aggregate
	if !agg.Aggregate(ps, false) {
		return nil, fmt.Errorf("aggregate public keys: %w", ErrBadPublicKey)
	}
	return &PublicKey{p: *agg.ToAffine()}, nil
}

// FastAggregateVerify checks an aggregate signature by pks, all over the
// same msg: one pairing check against the summed keys. Every key must have
// had its proof of possession verified, or a rogue key could forge it.
func FastAggregateVerify(pks []*PublicKey, msg []byte, agg *Signature) bool {
	if len(pks) == 0 || agg == nil {
		return false
	}
	apk, err := AggregatePublicKeys(pks)
	if err != nil {
		return false
	}
	return agg.s.Verify(false, &apk.p, false, msg, dstSign)
}

// BatchItem is one (public key, message, signature) triple of a batch.
type BatchItem struct {
	PublicKey *PublicKey
	Message   []byte
	Signature *Signature
}

// VerifyBatch checks many independent signatures at once, faster than one
// Verify each: all pairs go into one multi-pairing with a single final
// exponentiation. Each triple is weighted by a 64-bit scalar derived from
// the hash of the whole batch and its index (so a signer cannot choose
// signatures that cancel once the weights are known, and every node reaches
// the same verdict). It returns true only if every triple is valid, except
// with probability about 2^-64. It runs on the calling goroutine.
func VerifyBatch(items []BatchItem) bool {
	if len(items) == 0 {
		return false
	}
	h := make([][]byte, 0, 3*len(items))
	for _, it := range items {
		if it.PublicKey == nil || it.Signature == nil {
			return false
		}
		mh := crypto.Keccak256(it.Message)
		h = append(h, it.PublicKey.Bytes(), mh[:], it.Signature.Bytes())
	}
	transcript := crypto.Blake3(h...)
	ctx := blst.PairingCtx(true, dstSign)
	for i, it := range items {
		var idx [8]byte
		binary.BigEndian.PutUint64(idx[:], uint64(i))
		r := crypto.Blake3([]byte("cowboy/bls/batch"), transcript[:], idx[:])
		var be [32]byte
		copy(be[24:], r[:8]) // a 64-bit scalar, far below the group order
		be[31] |= 1          // never zero
		var s blst.Scalar
		if s.Deserialize(be[:]) == nil {
			return false
		}
		// 0 is BLST_SUCCESS; points were group-checked when decoded.
		if blst.PairingMulNAggregatePkInG1(ctx, &it.PublicKey.p, false, &it.Signature.s, false, &s, 64, it.Message) != 0 {
			return false
		}
	}
	blst.PairingCommit(ctx)
	return blst.PairingFinalVerify(ctx)
}
