package simplex

import (
	"errors"
	"fmt"

	"github.com/cowboy-chain/cowboy/chain/types"
)

// Wire format of consensus messages: canonical CBOR (RFC 8949 §4.2, the
// codec of chain/types), every structure an array in field order:
//
//	message = [type, from, round, height, block_hash, block / null,
//	           [block, ...] / null, count, signature, qc / null, tc / null,
//	           [partial, ...]]
//	block   = [parent, height, round, proposer, payload, vrf_proof, justify]
//	qc      = [block_hash, height, round, aggregated_signature, signer_bitmap,
//	           beacon]
//	tc      = [round, aggregated_signature, signer_bitmap]
//
// Hashes are 32-byte byte strings, integers unsigned. The recipient (To)
// is the transport's business and not encoded. Decoding refuses anything
// that is not exactly the canonical encoding of what it decodes to.

type wireBlock struct {
	_        struct{} `cbor:",toarray"`
	Parent   Hash
	Height   uint64
	Round    uint64
	Proposer uint32
	Payload  []byte
	VRFProof []byte
	Justify  *wireQC
}

type wireQC struct {
	_         struct{} `cbor:",toarray"`
	BlockHash Hash
	Height    uint64
	Round     uint64
	Signature []byte
	Signers   []byte
	Beacon    []byte
}

type wireTC struct {
	_         struct{} `cbor:",toarray"`
	Round     uint64
	Signature []byte
	Signers   []byte
}

type wireMessage struct {
	_         struct{} `cbor:",toarray"`
	Type      uint8
	From      uint32
	Round     uint64
	Height    uint64
	BlockHash Hash
	Block     *wireBlock
	Blocks    []*wireBlock
	Count     uint32
	Signature []byte
	QC        *wireQC
	TC        *wireTC
	Partials  [][]byte
}

func qcToWire(q *QC) *wireQC {
	if q == nil {
		return nil
	}
	return &wireQC{BlockHash: q.BlockHash, Height: q.Height, Round: q.Round, Signature: q.Signature, Signers: q.Signers, Beacon: q.Beacon}
}

func qcFromWire(w *wireQC) *QC {
	if w == nil {
		return nil
	}
	return &QC{BlockHash: w.BlockHash, Height: w.Height, Round: w.Round, Signature: w.Signature, Signers: Bitmap(w.Signers), Beacon: w.Beacon}
}

func blockToWire(b *Block) *wireBlock {
	if b == nil {
		return nil
	}
	return &wireBlock{Parent: b.Parent, Height: b.Height, Round: b.Round, Proposer: uint32(b.Proposer),
		Payload: b.Payload, VRFProof: b.VRFProof, Justify: qcToWire(b.Justify)}
}

func blockFromWire(w *wireBlock) *Block {
	if w == nil {
		return nil
	}
	return &Block{Parent: w.Parent, Height: w.Height, Round: w.Round, Proposer: int(w.Proposer),
		Payload: w.Payload, VRFProof: w.VRFProof, Justify: qcFromWire(w.Justify)}
}

// EncodeMessage serialises m for the wire (To is not encoded).
func EncodeMessage(m Message) ([]byte, error) {
	if m.From < 0 {
		return nil, fmt.Errorf("encode %v: sender %d has no validator index", m.Type, m.From)
	}
	w := wireMessage{Type: uint8(m.Type), From: uint32(m.From), Round: m.Round, Height: m.Height,
		BlockHash: m.BlockHash, Block: blockToWire(m.Block), Count: uint32(m.Count), Signature: m.Signature,
		QC: qcToWire(m.QC), Partials: m.Partials}
	if m.Blocks != nil {
		w.Blocks = make([]*wireBlock, len(m.Blocks))
		for i, b := range m.Blocks {
			w.Blocks[i] = blockToWire(b)
		}
	}
	if m.TC != nil {
		w.TC = &wireTC{Round: m.TC.Round, Signature: m.TC.Signature, Signers: m.TC.Signers}
	}
	b, err := types.Marshal(&w)
	if err != nil {
		return nil, fmt.Errorf("encode %v: %w", m.Type, err)
	}
	return b, nil
}

// DecodeMessage parses a message from the wire; to is the recipient the
// transport delivered it to.
func DecodeMessage(data []byte, to int) (Message, error) {
	var w wireMessage
	if err := types.Unmarshal(data, &w); err != nil {
		return Message{}, fmt.Errorf("decode consensus message: %w", err)
	}
	t := MsgType(w.Type)
	if t < MsgPropose || t > MsgBlock {
		return Message{}, fmt.Errorf("decode consensus message: unknown type %d", w.Type)
	}
	if len(w.Blocks) > MaxFetchBlocks {
		return Message{}, fmt.Errorf("decode consensus message: %d blocks, at most %d", len(w.Blocks), MaxFetchBlocks)
	}
	m := Message{Type: t, From: int(w.From), To: to, Round: w.Round, Height: w.Height, BlockHash: w.BlockHash,
		Block: blockFromWire(w.Block), Count: int(w.Count), Signature: w.Signature, QC: qcFromWire(w.QC), Partials: w.Partials}
	if w.Blocks != nil {
		m.Blocks = make([]*Block, len(w.Blocks))
		for i, b := range w.Blocks {
			if b == nil {
				return Message{}, errors.New("decode consensus message: null block in a block list")
			}
			m.Blocks[i] = blockFromWire(b)
		}
	}
	if w.TC != nil {
		m.TC = &TC{Round: w.TC.Round, Signature: w.TC.Signature, Signers: Bitmap(w.TC.Signers)}
	}
	return m, nil
}

// Storage encodings, for the node's disk (not the wire, though they use the
// same structures):
//
//	certified  = [block, qc]
//	hard_state = [round, last_voted, locked, high_qc / null, last_tc / null]

type wireCertified struct {
	_     struct{} `cbor:",toarray"`
	Block *wireBlock
	QC    *wireQC
}

type wireHardState struct {
	_         struct{} `cbor:",toarray"`
	Round     uint64
	LastVoted uint64
	Locked    uint64
	HighQC    *wireQC
	LastTC    *wireTC
}

// EncodeCertified serialises a block and the certificate that certifies it
// (a finalized block as the node stores it).
func EncodeCertified(c Certified) ([]byte, error) {
	b, err := types.Marshal(&wireCertified{Block: blockToWire(c.Block), QC: qcToWire(c.QC)})
	if err != nil {
		return nil, fmt.Errorf("encode certified block: %w", err)
	}
	return b, nil
}

// DecodeCertified parses what EncodeCertified wrote.
func DecodeCertified(data []byte) (Certified, error) {
	var w wireCertified
	if err := types.Unmarshal(data, &w); err != nil {
		return Certified{}, fmt.Errorf("decode certified block: %w", err)
	}
	if w.Block == nil {
		return Certified{}, errors.New("decode certified block: no block")
	}
	return Certified{Block: blockFromWire(w.Block), QC: qcFromWire(w.QC)}, nil
}

// EncodeHardState serialises what a validator persists before sending.
func EncodeHardState(hs *HardState) ([]byte, error) {
	w := wireHardState{Round: hs.Round, LastVoted: hs.LastVoted, Locked: hs.Locked, HighQC: qcToWire(hs.HighQC)}
	if hs.LastTC != nil {
		w.LastTC = &wireTC{Round: hs.LastTC.Round, Signature: hs.LastTC.Signature, Signers: hs.LastTC.Signers}
	}
	b, err := types.Marshal(&w)
	if err != nil {
		return nil, fmt.Errorf("encode hard state: %w", err)
	}
	return b, nil
}

// DecodeHardState parses what EncodeHardState wrote.
func DecodeHardState(data []byte) (*HardState, error) {
	var w wireHardState
	if err := types.Unmarshal(data, &w); err != nil {
		return nil, fmt.Errorf("decode hard state: %w", err)
	}
	hs := &HardState{Round: w.Round, LastVoted: w.LastVoted, Locked: w.Locked, HighQC: qcFromWire(w.HighQC)}
	if w.LastTC != nil {
		hs.LastTC = &TC{Round: w.LastTC.Round, Signature: w.LastTC.Signature, Signers: Bitmap(w.LastTC.Signers)}
	}
	return hs, nil
}
