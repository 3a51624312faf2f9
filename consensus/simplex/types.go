package simplex

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math/bits"

	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto/vrf"
)

// Hash identifies a block: keccak256 of its encoding (see Block.Hash).
type Hash = types.Hash

// Block is the unit the validators agree on. The payload is opaque here:
// the node puts the execution block in it and judges it through Verdict.
//
// Its id is keccak256 of
//
//	"cowboy/simplex/block/v1" || parent (32) || height (8, big-endian)
//	|| round (8, big-endian) || proposer (4, big-endian)
//	|| keccak256(payload) (32) || vrf_proof (96)
//
// The justifying certificate is not part of the id: it proves the parent
// was certified, and different signer subsets may certify the same parent.
type Block struct {
	Parent   Hash
	Height   uint64 // parent height + 1; genesis is height 0
	Round    uint64 // the round it was proposed in; genesis is round 0
	Proposer int    // validator index, the leader of Round
	Payload  []byte
	// VRFProof is the proposer's VRF proof over (epoch seed, Height)
	// (§6.1); its hash is the block's random beacon output.
	VRFProof []byte
	// Justify certifies Parent; every proposal carries it.
	Justify *QC
}

// Hash computes the block id.
// (types.ProposalHash, which the registry's invalid-proposal evidence
// recomputes).
func (b *Block) Hash() Hash {
	return Hash(types.ProposalHash(types.Hash(b.Parent), b.Height, b.Round, uint32(b.Proposer), b.Payload, b.VRFProof))
}

// Beacon is the block's random output: the hash of its proposer's VRF
// proof over (epoch seed, height), checked when the block was accepted.
// The execution layer derives per-purpose randomness from it (§3.4).
func (b *Block) Beacon() [32]byte { return vrf.ProofToHash(b.VRFProof) }

// VoteMessage is the byte string a vote signs (§6.1), types.VoteMessage:
//
//	block_hash (32) || height (8, big-endian) || round (8, big-endian)
func VoteMessage(h Hash, height, round uint64) []byte { return types.VoteMessage(h, height, round) }

// NewViewMessage is the byte string a NEW_VIEW signs:
//
//	"cowboy/simplex/newview/v1" || round (8, big-endian)
//
// Every validator that gives up a round signs the same bytes, so the
// signatures aggregate into a timeout certificate.
func NewViewMessage(round uint64) []byte {
	m := make([]byte, 0, len(tagNewView)+8)
	m = append(m, tagNewView...)
	return binary.BigEndian.AppendUint64(m, round)
}

// Bitmap marks validators by index: bit i%8 of byte i/8 is validator i.
type Bitmap []byte

// NewBitmap has room for n validators.
func NewBitmap(n int) Bitmap { return make(Bitmap, (n+7)/8) }

// Set marks validator i.
func (b Bitmap) Set(i int) { b[i/8] |= 1 << (i % 8) }

// Has reports whether validator i is marked.
func (b Bitmap) Has(i int) bool { return i >= 0 && i/8 < len(b) && b[i/8]&(1<<(i%8)) != 0 }

// Count is the number of marked validators.
func (b Bitmap) Count() int {
	n := 0
	for _, x := range b {
		n += bits.OnesCount8(x)
	}
	return n
}

// Indices lists the marked validators in ascending order.
func (b Bitmap) Indices() []int {
	var out []int
	for i := 0; i < len(b)*8; i++ {
		if b.Has(i) {
			out = append(out, i)
		}
	}
	return out
}

// QC is a quorum certificate (§6.1): signers holding more than 2/3 of the
// stake voted for BlockHash at (Height, Round). Signature is the aggregate
// of their votes over VoteMessage(BlockHash, Height, Round).
type QC struct {
	BlockHash Hash
	Height    uint64
	Round     uint64
	Signature []byte
	Signers   Bitmap
	// Beacon is σ, the epoch group key's threshold signature on the same
	// VoteMessage (§3.4, §12.4), combined from the signers' partial
	// signatures; empty when the epoch has no beacon key, and on the root
	// certificate. It is unique for the block, so every copy of a
	// certificate carries the same σ, and R = BeaconOutput(σ).
	Beacon []byte
}

// String is a short form for logs: block prefix, height, round, signers.
func (q *QC) String() string {
	if q == nil {
		return "<nil>"
	}
	return fmt.Sprintf("QC{%s h=%d r=%d signers=%v}", Short(q.BlockHash), q.Height, q.Round, q.Signers.Indices())
}

// TC is a timeout certificate: signers holding more than 2/3 of the stake
// sent NEW_VIEW for Round. It lets a proposer build on a certificate older
// than the previous round and lets a node that fell behind skip rounds.
type TC struct {
	Round     uint64
	Signature []byte
	Signers   Bitmap
}

// String is a short form for logs: round and signers.
func (t *TC) String() string {
	if t == nil {
		return "<nil>"
	}
	return fmt.Sprintf("TC{r=%d signers=%v}", t.Round, t.Signers.Indices())
}

// MsgType tells the kind of a Message.
type MsgType uint8

// Message kinds. Propose, Vote and NewView are the normative types of
// §6.1; Fetch and BlockReply let a node that missed a proposal get the
// block a certificate names.
const (
	MsgPropose MsgType = iota + 1
	MsgVote
	MsgNewView
	MsgFetch
	MsgBlock
)

// String is the spec's name of the message type.
func (t MsgType) String() string {
	switch t {
	case MsgPropose:
		return "PROPOSE"
	case MsgVote:
		return "VOTE"
	case MsgNewView:
		return "NEW_VIEW"
	case MsgFetch:
		return "FETCH"
	case MsgBlock:
		return "BLOCK"
	}
	return fmt.Sprintf("MsgType(%d)", uint8(t))
}

// Broadcast as Message.To sends to every other validator.
const Broadcast = -1

// Message is what validators exchange. Which fields are set depends on Type:
//
//	PROPOSE   Block (with Justify), Signature = the proposer's vote on it,
//	          TC for Block.Round-1 when Justify is older than that round
//	VOTE      BlockHash, Height, Round, Signature
//	NEW_VIEW  Round (the round given up), Signature over NewViewMessage,
//	          QC = the sender's highest QC, TC = the certificate that
//	          ended the round before Round, if the sender has it
//	FETCH     BlockHash wanted, Count = how many blocks, that one and its
//	          ancestors, the asker wants (at most MaxFetchBlocks)
//	BLOCK     Blocks: the wanted block first, then its ancestors in
//	          descending height, each the parent of the one before
//
// From is the sender's validator index; the transport must authenticate
// it (§6.2 binds peer identity to the node key), and signed content is
// checked against the signer it claims.
type Message struct {
	Type      MsgType
	From      int
	To        int // validator index, or Broadcast
	Round     uint64
	Height    uint64
	BlockHash Hash
	Block     *Block
	Blocks    []*Block
	Count     int
	Signature []byte
	QC        *QC
	TC        *TC
	// Partials are the sender's partial signatures on the vote message
	// (VOTE and PROPOSE), one per share of the epoch beacon key it holds,
	// in share order; empty when the epoch has no beacon key.
	Partials [][]byte
}

// String is one log line: sender, recipient, type and the fields that
// matter for it. It never panics, even on a malformed message.
func (m Message) String() string {
	to := "all"
	if m.To != Broadcast {
		to = fmt.Sprint(m.To)
	}
	switch {
	case m.Type == MsgPropose && (m.Block == nil || m.Block.Justify == nil),
		m.Type == MsgNewView && m.QC == nil:
		return fmt.Sprintf("%d->%s %v (malformed)", m.From, to, m.Type)
	}
	switch m.Type {
	case MsgPropose:
		s := fmt.Sprintf("%d->%s PROPOSE %s h=%d r=%d parent=%s justify=r%d", m.From, to, Short(m.Block.Hash()), m.Block.Height, m.Block.Round, Short(m.Block.Parent), m.Block.Justify.Round)
		if m.TC != nil {
			s += fmt.Sprintf(" tc=r%d", m.TC.Round)
		}
		return s
	case MsgVote:
		return fmt.Sprintf("%d->%s VOTE %s h=%d r=%d", m.From, to, Short(m.BlockHash), m.Height, m.Round)
	case MsgNewView:
		s := fmt.Sprintf("%d->%s NEW_VIEW r=%d highqc=%s@r%d", m.From, to, m.Round, Short(m.QC.BlockHash), m.QC.Round)
		if m.TC != nil {
			s += fmt.Sprintf(" tc=r%d", m.TC.Round)
		}
		return s
	case MsgFetch:
		return fmt.Sprintf("%d->%s FETCH %s count=%d", m.From, to, Short(m.BlockHash), m.Count)
	case MsgBlock:
		if len(m.Blocks) == 0 {
			return fmt.Sprintf("%d->%s BLOCK none", m.From, to)
		}
		top, low := m.Blocks[0], m.Blocks[len(m.Blocks)-1]
		if top == nil || low == nil {
			return fmt.Sprintf("%d->%s BLOCK (malformed)", m.From, to)
		}
		return fmt.Sprintf("%d->%s BLOCK %s h=%d..%d", m.From, to, Short(top.Hash()), low.Height, top.Height)
	}
	return fmt.Sprintf("%d->%s %v", m.From, to, m.Type)
}

// Short is the first four bytes of a hash in hex, for logs and test output.
func Short(h Hash) string { return hex.EncodeToString(h[:4]) }
