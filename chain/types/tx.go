package types

import (
	"errors"
	"fmt"
	"math/big"
	"sync/atomic"

	"github.com/cowboy-chain/cowboy/crypto"
)

// Tx is the typed, dual-metered transaction of technical-spec-v2 §2.1.
//
// Wire format (§2.5, normative): a canonical CBOR array of exactly 13 items
//
//	[chain_id, nonce, to, value, cycles_limit, cells_limit,
//	 max_fee_per_cycle, max_fee_per_cell, tip_per_cycle, tip_per_cell,
//	 access_list, payload, signature]
//
//	chain_id, nonce, *_limit, max_fee_*, tip_*   uint (≤ 2^64-1, shortest form)
//	to            20-byte byte string, or null for actor creation
//	value         uint, or tag 2 bignum (no leading zero byte) for ≥ 2^64, < 2^256
//	access_list   null, or array of [address(20 bytes), [key(32 bytes), ...]]
//	payload       byte string (may be empty: 0x40)
//	signature     null (when signing), or [y_parity(0|1), r(32 bytes), s(32 bytes)]
//
// Signing hash = keccak256 of the array with signature = null; transaction
// hash = keccak256 of the signed array. Chain-id separation (§1.1): chain_id
// is inside the signed bytes, so a signature is valid on one chain only.
type Tx struct {
	ChainID        uint64
	Nonce          uint64
	To             *Address // nil: actor creation
	Value          *big.Int // base units; nil means 0
	CyclesLimit    uint64
	CellsLimit     uint64
	MaxFeePerCycle uint64 // base units per cycle
	MaxFeePerCell  uint64 // base units per cell
	TipPerCycle    uint64
	TipPerCell     uint64
	AccessList     []AccessTuple // nil encodes as null
	Payload        []byte
	Sig            *Signature // nil while unsigned

	// Caches filled once; a Tx must not be mutated after it is shared.
	hash   atomic.Pointer[Hash]
	sender atomic.Pointer[Address]
	size   atomic.Int64
	// hashBuf and senderBuf hold the first cached hash and sender inside
	// the transaction, so a cached read does not chase a pointer to a
	// separate allocation (a cache miss for each of the thousands of
	// transactions a block touches, several times per transaction): the
	// goroutine that wins hashOwned (senderOwned) writes the buffer once,
	// then publishes its address in hash (sender).
	hashOwned, senderOwned atomic.Bool
	hashBuf                Hash
	senderBuf              Address
	// enc is the canonical encoding DecodeTx verified the bytes against
	// (nil for a transaction built in memory): Hash and Block.Encode use
	// it instead of encoding the transaction again, so a decoded
	// transaction's hash and block bytes are those of the bytes it came
	// from (change a field and Sign again, or build a new Tx). Set before
	// the transaction is shared, never written after, never handed out.
	enc []byte
}

// AccessTuple declares an address and storage keys a transaction touches.
type AccessTuple struct {
	Address     Address
	StorageKeys []Hash
}

// Signature is [y_parity, r, s] with r and s 32-byte big-endian.
type Signature struct {
	YParity byte
	R, S    [32]byte
}

// ValueOrZero never returns nil, so callers can do arithmetic directly.
func (tx *Tx) ValueOrZero() *big.Int {
	if tx.Value == nil {
		return new(big.Int)
	}
	return tx.Value
}

func (tx *Tx) appendCBOR(b []byte, withSig bool) []byte {
	b = appendHead(b, majorArray, 13)
	b = appendUint(b, tx.ChainID)
	b = appendUint(b, tx.Nonce)
	if tx.To == nil {
		b = append(b, cborNull)
	} else {
		b = appendBytes(b, tx.To[:])
	}
	b = appendBigUint(b, tx.Value)
	b = appendUint(b, tx.CyclesLimit)
	b = appendUint(b, tx.CellsLimit)
	b = appendUint(b, tx.MaxFeePerCycle)
	b = appendUint(b, tx.MaxFeePerCell)
	b = appendUint(b, tx.TipPerCycle)
	b = appendUint(b, tx.TipPerCell)
	if tx.AccessList == nil {
		b = append(b, cborNull)
	} else {
		b = appendHead(b, majorArray, uint64(len(tx.AccessList)))
		for _, at := range tx.AccessList {
			b = appendHead(b, majorArray, 2)
			b = appendBytes(b, at.Address[:])
			b = appendHead(b, majorArray, uint64(len(at.StorageKeys)))
			for _, k := range at.StorageKeys {
				b = appendBytes(b, k[:])
			}
		}
	}
	b = appendBytes(b, tx.Payload)
	if !withSig || tx.Sig == nil {
		return append(b, cborNull)
	}
	b = appendHead(b, majorArray, 3)
	b = appendUint(b, uint64(tx.Sig.YParity))
	b = appendBytes(b, tx.Sig.R[:])
	return appendBytes(b, tx.Sig.S[:])
}

// SigningBytes is the canonical CBOR with signature = null (§2.5).
func (tx *Tx) SigningBytes() []byte {
	return tx.appendCBOR(make([]byte, 0, 128+len(tx.Payload)), false)
}

// SigningHash is keccak256(SigningBytes()).
func (tx *Tx) SigningHash() Hash { return Hash(crypto.Keccak256(tx.SigningBytes())) }

// Encode is the canonical CBOR of the transaction as it is (signed or not).
func (tx *Tx) Encode() []byte { return tx.appendCBOR(make([]byte, 0, 200+len(tx.Payload)), true) }

// appendEncoding appends Encode() to b without a copy of its own.
func (tx *Tx) appendEncoding(b []byte) []byte {
	if tx.enc != nil {
		return append(b, tx.enc...)
	}
	return tx.appendCBOR(b, true)
}

// Hash is keccak256 of the signed transaction's canonical CBOR.
func (tx *Tx) Hash() Hash {
	if h := tx.hash.Load(); h != nil {
		return *h
	}
	var h Hash
	if tx.enc != nil {
		h = Hash(crypto.Keccak256(tx.enc))
	} else {
		h = Hash(crypto.Keccak256(tx.Encode()))
	}
	if tx.hashOwned.CompareAndSwap(false, true) {
		tx.hashBuf = h
		tx.hash.Store(&tx.hashBuf)
	}
	return h
}

// Size is the length of the encoded transaction in bytes.
func (tx *Tx) Size() int {
	if n := tx.size.Load(); n != 0 {
		return int(n)
	}
	n := len(tx.Encode())
	tx.size.Store(int64(n))
	return n
}

// Sign fills in the signature with key; the transaction must not have been
// shared yet.
func (tx *Tx) Sign(key *crypto.PrivateKey) {
	v, r, s := key.Sign(tx.SigningHash())
	tx.Sig = &Signature{YParity: v, R: r, S: s}
	tx.hash.Store(nil)
	tx.hashOwned.Store(false)
	tx.size.Store(0)
	tx.enc = nil
	tx.senderBuf = Address(key.Address())
	tx.senderOwned.Store(true)
	tx.sender.Store(&tx.senderBuf)
}

// SetSender caches a sender the caller knows without recovering it: the
// devnet's impersonated transactions (node/devimpersonate.go), whose
// signature is a marker and not an ECDSA signature, and committed
// transactions read back for RPC (node's senderCache, filled from
// execution). Consensus code never calls it: a transaction from the
// network has its sender recovered from its signature.
func (tx *Tx) SetSender(a Address) { tx.sender.Store(&a) }

// ErrNoSignature is returned for a transaction that carries no signature.
var ErrNoSignature = errors.New("transaction is not signed")

// Sender recovers the signer's address once and caches it, so a
// transaction's signature is recovered when it enters the mempool and never
// again.
func (tx *Tx) Sender() (Address, error) {
	if a := tx.sender.Load(); a != nil {
		return *a, nil
	}
	if tx.Sig == nil {
		return Address{}, ErrNoSignature
	}
	pub, err := crypto.Recover(crypto.Keccak256(tx.SigningBytes()), tx.Sig.YParity, tx.Sig.R, tx.Sig.S)
	if err != nil {
		return Address{}, err
	}
	a := Address(crypto.PubkeyToAddress(pub))
	if tx.senderOwned.CompareAndSwap(false, true) {
		tx.senderBuf = a
		tx.sender.Store(&tx.senderBuf)
	} else {
		tx.sender.CompareAndSwap(nil, &a)
	}
	return a, nil
}

// ErrDecodeTx wraps every reason a transaction's bytes are refused.
var ErrDecodeTx = errors.New("decode transaction")

// DecodeTx parses a transaction and insists the bytes are exactly the
// canonical encoding of what they decode to.
func DecodeTx(b []byte) (*Tx, error) {
	if len(b) > MaxTxSize {
		return nil, fmt.Errorf("%w: %d bytes exceeds max_tx_size %d", ErrDecodeTx, len(b), MaxTxSize)
	}
	tx, err := decodeTx(b)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrDecodeTx, err)
	}
	tx.size.Store(int64(len(b)))
	return tx, nil
}

func decodeTx(b []byte) (*Tx, error) {
	r := &reader{b: b}
	n, err := r.array()
	if err != nil {
		return nil, err
	}
	if n != 13 {
		return nil, fmt.Errorf("want a 13-item array, got %d items", n)
	}
	tx := new(Tx)
	field := func(name string, err error) error {
		if err != nil {
			return fmt.Errorf("field %s: %w", name, err)
		}
		return nil
	}
	if tx.ChainID, err = r.uint(); err != nil {
		return nil, field("chain_id", err)
	}
	if tx.Nonce, err = r.uint(); err != nil {
		return nil, field("nonce", err)
	}
	if !r.peekNull() {
		var a Address
		if err := r.fixedBytes(a[:]); err != nil {
			return nil, field("to", err)
		}
		tx.To = &a
	}
	if tx.Value, err = r.bigUint(maxValueBits); err != nil {
		return nil, field("value", err)
	}
	for _, f := range []struct {
		name string
		dst  *uint64
	}{
		{"cycles_limit", &tx.CyclesLimit}, {"cells_limit", &tx.CellsLimit},
		{"max_fee_per_cycle", &tx.MaxFeePerCycle}, {"max_fee_per_cell", &tx.MaxFeePerCell},
		{"tip_per_cycle", &tx.TipPerCycle}, {"tip_per_cell", &tx.TipPerCell},
	} {
		if *f.dst, err = r.uint(); err != nil {
			return nil, field(f.name, err)
		}
	}
	if !r.peekNull() {
		if tx.AccessList, err = decodeAccessList(r); err != nil {
			return nil, field("access_list", err)
		}
	}
	if tx.Payload, err = r.bytes(MaxTxSize); err != nil {
		return nil, field("payload", err)
	}
	if !r.peekNull() {
		if tx.Sig, err = decodeSig(r); err != nil {
			return nil, field("signature", err)
		}
	}
	if err := r.end(); err != nil {
		return nil, err
	}
	// The decoder above already refuses non-shortest heads; re-encoding
	// catches anything else that is not byte-for-byte canonical.
	enc := tx.appendCBOR(make([]byte, 0, len(b)), true)
	if string(enc) != string(b) {
		return nil, errors.New("bytes are not the canonical encoding")
	}
	tx.enc = enc[:len(enc):len(enc)]
	return tx, nil
}

func decodeAccessList(r *reader) ([]AccessTuple, error) {
	n, err := r.array()
	if err != nil {
		return nil, err
	}
	out := make([]AccessTuple, 0, n)
	for i := 0; i < n; i++ {
		m, err := r.array()
		if err != nil {
			return nil, fmt.Errorf("entry %d: %w", i, err)
		}
		if m != 2 {
			return nil, fmt.Errorf("entry %d: want [address, keys], got %d items", i, m)
		}
		var at AccessTuple
		if err := r.fixedBytes(at.Address[:]); err != nil {
			return nil, fmt.Errorf("entry %d address: %w", i, err)
		}
		k, err := r.array()
		if err != nil {
			return nil, fmt.Errorf("entry %d keys: %w", i, err)
		}
		at.StorageKeys = make([]Hash, k)
		for j := range at.StorageKeys {
			if err := r.fixedBytes(at.StorageKeys[j][:]); err != nil {
				return nil, fmt.Errorf("entry %d key %d: %w", i, j, err)
			}
		}
		out = append(out, at)
	}
	return out, nil
}

func decodeSig(r *reader) (*Signature, error) {
	n, err := r.array()
	if err != nil {
		return nil, err
	}
	if n != 3 {
		return nil, fmt.Errorf("want [y_parity, r, s], got %d items", n)
	}
	v, err := r.uint()
	if err != nil {
		return nil, fmt.Errorf("y_parity: %w", err)
	}
	if v > 1 {
		return nil, fmt.Errorf("y_parity %d is not 0 or 1", v)
	}
	s := &Signature{YParity: byte(v)}
	if err := r.fixedBytes(s.R[:]); err != nil {
		return nil, fmt.Errorf("r: %w", err)
	}
	if err := r.fixedBytes(s.S[:]); err != nil {
		return nil, fmt.Errorf("s: %w", err)
	}
	return s, nil
}
