package types

import (
	"fmt"
	"math/big"

	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/crypto/blake16"
	"github.com/fxamacker/cbor/v2"
)

// Header commits to a block. Encoded as a CBOR array in field order; the
// block hash is keccak256 of that encoding.
type Header struct {
	_            struct{} `cbor:",toarray"`
	ParentHash   Hash
	Height       uint64
	Time         uint64 // unix seconds, never below the parent's
	Proposer     Address
	StateRoot    Hash   // BLAKE3 commitment to the whole state after this block (store package)
	TxRoot       Hash   // MerkleRoot of the transaction hashes, in block order
	ReceiptsRoot Hash   // MerkleRoot of BLAKE3(receipt CBOR), in block order
	BasefeeCycle uint64 // base units per cycle that this block's transactions paid (§4.2)
	BasefeeCell  uint64 // base units per cell
	CyclesUsed   uint64
	CellsUsed    uint64
}

// Hash is keccak256 of the header's canonical CBOR.
func (h *Header) Hash() Hash {
	b, err := Marshal(h)
	if err != nil {
		panic(fmt.Sprintf("encode header: %v", err)) // fixed-size fields cannot fail
	}
	return Hash(crypto.Keccak256(b))
}

// Block is a header and its transactions, encoded as
// [header, [tx, ...]] with each transaction in its own canonical CBOR.
type Block struct {
	Header *Header
	Txs    []*Tx
}

type blockWire struct {
	_      struct{} `cbor:",toarray"`
	Header *Header
	Txs    []cbor.RawMessage
}

// Encode serialises the block.
//
// The bytes are those of Marshal(&blockWire{...}) (TestBlockEncodeMatchesReflection):
// a 2-item array of the header and the array of the transactions' own
// canonical encodings. The transactions are appended straight into one
// buffer, since a block carries thousands of them.
func (b *Block) Encode() ([]byte, error) {
	hdr, err := Marshal(b.Header)
	if err != nil {
		return nil, fmt.Errorf("encode block header: %w", err)
	}
	size := len(hdr) + 18
	for _, tx := range b.Txs {
		size += tx.Size()
	}
	out := make([]byte, 0, size)
	out = appendHead(out, majorArray, 2)
	out = append(out, hdr...)
	out = appendHead(out, majorArray, uint64(len(b.Txs)))
	for _, tx := range b.Txs {
		out = tx.appendEncoding(out)
	}
	return out, nil
}

// DecodeBlock parses a block produced by Encode.
func DecodeBlock(data []byte) (*Block, error) {
	var w blockWire
	if err := Unmarshal(data, &w); err != nil {
		return nil, fmt.Errorf("decode block: %w", err)
	}
	b := &Block{Header: w.Header, Txs: make([]*Tx, len(w.Txs))}
	for i, raw := range w.Txs {
		tx, err := DecodeTx(raw)
		if err != nil {
			return nil, fmt.Errorf("decode block: tx %d: %w", i, err)
		}
		b.Txs[i] = tx
	}
	if b.Header == nil {
		return nil, fmt.Errorf("decode block: missing header")
	}
	return b, nil
}

// Receipt records what a transaction did. Fee = Burned + Tip.
type Receipt struct {
	_          struct{} `cbor:",toarray"`
	TxHash     Hash
	Status     uint64 // ReceiptSuccess or ReceiptFailed
	CyclesUsed uint64
	CellsUsed  uint64
	Fee        *big.Int // base units paid by the sender
	Burned     *big.Int // basefee part, destroyed (§4.2: 100% burned)
	Tip        *big.Int // to the proposer
	ReturnData []byte
	Events     []Event
	Error      string // why execution failed; empty on success
	// ContractAddress is the new actor's address for a deployment (§1.2).
	ContractAddress *Address
	// Messages has one entry per delivered actor message, in delivery
	// order; the first is the transaction's own (issue 6: a failing message
	// reverts only its own handler, and its failure shows here).
	Messages []MessageResult
}

// MessageResult is what one delivered actor message did.
type MessageResult struct {
	_          struct{} `cbor:",toarray"`
	ID         Hash     // keccak256(sender || nonce || msg_hash), §3.3
	From       Address
	To         Address
	Method     string
	Depth      uint64 // 1 for the transaction's own message
	Status     uint64 // ReceiptSuccess or ReceiptFailed
	CyclesUsed uint64
	CellsUsed  uint64
	Error      string
}

// Receipt status codes.
const (
	ReceiptFailed  uint64 = 0
	ReceiptSuccess uint64 = 1
)

// Event is a log entry emitted by an actor.
type Event struct {
	_       struct{} `cbor:",toarray"`
	Address Address
	Name    string
	Data    []byte
}

// Encode serialises the receipt: the bytes Marshal would produce (nil
// slices as null; TestReceiptCodecMatchesReflection), written by hand
// because every transaction has a receipt.
func (r *Receipt) Encode() ([]byte, error) {
	b := make([]byte, 0, 128+len(r.ReturnData)+len(r.Error))
	b = appendHead(b, majorArray, 12)
	b = appendBytes(b, r.TxHash[:])
	b = appendUint(b, r.Status)
	b = appendUint(b, r.CyclesUsed)
	b = appendUint(b, r.CellsUsed)
	for _, v := range []*big.Int{r.Fee, r.Burned, r.Tip} {
		if v == nil {
			b = append(b, cborNull)
			continue
		}
		if v.Sign() < 0 {
			return nil, fmt.Errorf("encode receipt: negative amount %s", v)
		}
		b = appendBigUint(b, v)
	}
	if r.ReturnData == nil {
		b = append(b, cborNull)
	} else {
		b = appendBytes(b, r.ReturnData)
	}
	if r.Events == nil {
		b = append(b, cborNull)
	} else {
		b = appendHead(b, majorArray, uint64(len(r.Events)))
		for _, e := range r.Events {
			b = appendHead(b, majorArray, 3)
			b = appendBytes(b, e.Address[:])
			b = appendText(b, e.Name)
			if e.Data == nil {
				b = append(b, cborNull)
			} else {
				b = appendBytes(b, e.Data)
			}
		}
	}
	b = appendText(b, r.Error)
	if r.ContractAddress == nil {
		b = append(b, cborNull)
	} else {
		b = appendBytes(b, r.ContractAddress[:])
	}
	if r.Messages == nil {
		return append(b, cborNull), nil
	}
	b = appendHead(b, majorArray, uint64(len(r.Messages)))
	for i := range r.Messages {
		m := &r.Messages[i]
		b = appendHead(b, majorArray, 9)
		b = appendBytes(b, m.ID[:])
		b = appendBytes(b, m.From[:])
		b = appendBytes(b, m.To[:])
		b = appendText(b, m.Method)
		b = appendUint(b, m.Depth)
		b = appendUint(b, m.Status)
		b = appendUint(b, m.CyclesUsed)
		b = appendUint(b, m.CellsUsed)
		b = appendText(b, m.Error)
	}
	return b, nil
}

// DecodeReceipt parses a receipt.
func DecodeReceipt(b []byte) (*Receipt, error) {
	r := new(Receipt)
	if err := Unmarshal(b, r); err != nil {
		return nil, fmt.Errorf("decode receipt: %w", err)
	}
	return r, nil
}

// The domain prefixes of MerkleRoot's leaves and inner nodes, shared and
// never written (a []byte{0} literal per call would be an allocation).
var leafPrefix, nodePrefix = []byte{0}, []byte{1}

// merkle16 has MerkleRoot hash with crypto/blake16 (AVX-512), where the
// processor has it: a block's two roots take about two compressions per
// transaction, and one 16-lane compression costs about what one scalar
// compression does. The tests compare both ways.
var merkle16 = blake16.Available

// MerkleRoot is a binary BLAKE3 Merkle root over leaves: leaves are hashed
// with a 0x00 prefix and inner nodes with 0x01 (so a leaf can never pose as
// a node); an odd node is promoted unchanged; the empty list's root is
// BLAKE3 of nothing.
func MerkleRoot(leaves []Hash) Hash {
	if len(leaves) == 0 {
		return Hash(crypto.Blake3(nil))
	}
	level := make([]Hash, len(leaves))
	if merkle16 {
		// The same hashes, sixteen at a time: the leaves, then each level's
		// pairs, written over the level's front as below.
		blake16.Leaves(leafPrefix[0], leaves, level)
		for n := len(level); n > 1; n = (n + 1) / 2 {
			blake16.Nodes(nodePrefix[0], level[:n], level)
			if n%2 == 1 {
				level[n/2] = level[n-1]
			}
		}
		return level[0]
	}
	for i := range leaves {
		// leaves[i][:], not a loop variable's: crypto.Blake3 keeps its
		// inputs' contents reachable for the compiler, which would move a
		// copy to the heap for every leaf.
		level[i] = Hash(crypto.Blake3(leafPrefix, leaves[i][:]))
	}
	// Each level is written over the front of the one below it (node i/2
	// is written after nodes i and i+1 are read), so the whole root takes
	// one allocation.
	for n := len(level); n > 1; n = (n + 1) / 2 {
		for i := 0; i < n; i += 2 {
			if i+1 == n {
				level[i/2] = level[i]
				continue
			}
			level[i/2] = Hash(crypto.Blake3(nodePrefix, level[i][:], level[i+1][:]))
		}
	}
	return level[0]
}
