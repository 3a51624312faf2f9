package node

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sync"

	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/consensus/simplex"
	"github.com/cowboy-chain/cowboy/rpc"
	"github.com/cowboy-chain/cowboy/store"
)

// Each block's state over RPC: proposed, committed (certified), finalized
// (issue 8). Finalized blocks are read from the store, which any goroutine
// may do. The others live only in the consensus, which the event loop
// goroutine owns: after each drain the loop publishes a copy of what the
// consensus holds above its finalized height, and RPC reads that copy,
// never the consensus itself.

// statusState is the published copy.
type statusState struct {
	mu     sync.Mutex
	blocks []knownBlock // above the consensus's finalized height, by height, round, hash
}

// knownBlock is one block of the copy (values only: nothing shared with
// the consensus).
type knownBlock struct {
	hash, parent  simplex.Hash
	height, round uint64
	proposer      types.Address // resolved in the epoch the block is of
	certified     bool
}

// publishStatus copies the consensus's blocks for RPC; the event loop calls
// it after each drain.
func (n *Node) publishStatus() {
	known := n.net.sx.Known()
	out := make([]knownBlock, len(known))
	for i, k := range known {
		out[i] = knownBlock{hash: k.Hash, parent: k.Block.Parent, height: k.Block.Height, round: k.Block.Round,
			proposer: n.net.ep.proposerOf(k.Block), certified: k.QC != nil}
	}
	st := &n.net.status
	st.mu.Lock()
	st.blocks = out
	st.mu.Unlock()
}

// knownAbove returns the published blocks above height.
func (n *Node) knownAbove(height uint64) []knownBlock {
	st := &n.net.status
	st.mu.Lock()
	defer st.mu.Unlock()
	var out []knownBlock
	for _, k := range st.blocks {
		if k.height > height {
			out = append(out, k)
		}
	}
	return out
}

// The node reports its consensus state (cowboy_consensusStatus) and each
// block's (cowboy_getBlockStatus).
var (
	_ rpc.ConsensusReporter   = (*Node)(nil)
	_ rpc.BlockStatusReporter = (*Node)(nil)
)

// ConsensusStatus describes the consensus: on a devnet every block is final
// when it is made; on a network, the certified and the proposed blocks the
// consensus holds above the finalized height are listed by height, round
// and hash, so the answer does not depend on map order.
func (n *Node) ConsensusStatus() rpc.ConsensusStatus {
	ci, ok := n.Consensus()
	if !ok {
		return rpc.ConsensusStatus{Mode: "devnet", FinalizedHeight: n.Head().Height}
	}
	out := rpc.ConsensusStatus{Mode: "full", FinalizedHeight: ci.FinalizedHeight, Peers: uint64(ci.Peers)}
	// The consensus numbers rounds epoch<<32 + r (node/epoch.go); users
	// read the two apart (issue 16 saw round 0x100000002).
	epoch, round := splitRound(ci.Round)
	out.Round, out.Epoch = &round, &epoch
	if ci.Validator >= 0 {
		v := uint64(ci.Validator)
		out.Validator = &v
		out.Mode = "validator"
	}
	for _, k := range n.knownAbove(ci.FinalizedHeight) {
		e, r := splitRound(k.round)
		b := rpc.ConsensusBlock{Hash: types.Hash(k.hash), Height: k.height, Round: r, Epoch: e,
			Proposer: k.proposer, Parent: types.Hash(k.parent)}
		if k.certified {
			out.Committed = append(out.Committed, b)
		} else {
			out.Proposed = append(out.Proposed, b)
		}
	}
	return out
}

// BlockStatusByHash finds a finalized block by its chain or consensus hash,
// or a block the consensus holds above the finalized height by its
// consensus hash.
func (n *Node) BlockStatusByHash(h types.Hash) (*rpc.BlockStatus, error) {
	for attempt := 0; attempt < 2; attempt++ {
		// Chain block hash: finalized.
		b, err := n.blockByHash(h)
		if err == nil {
			return n.finalizedStatus(b.Header.Height, b.Header.Hash())
		}
		if !errors.Is(err, rpc.ErrNotFound) {
			return nil, err
		}
		if n.net == nil {
			break
		}
		// Consensus hash of a finalized block.
		raw, err := n.db.GetRaw(certByHashKey(simplex.Hash(h)))
		if err == nil && len(raw) == 8 {
			if ht := binary.BigEndian.Uint64(raw); ht <= n.Head().Height {
				return n.finalizedStatusAt(ht)
			}
		} else if err != nil && !errors.Is(err, store.ErrNotFound) {
			return nil, fmt.Errorf("block status %s: %w", h, err)
		}
		if simplex.Hash(h) == n.net.genesis.Hash() {
			return n.finalizedStatusAt(0)
		}
		// Above the finalized height. A block finalized between the two
		// reads has left the copy but is in the store: look again.
		for _, k := range n.knownAbove(n.Head().Height) {
			if k.hash == simplex.Hash(h) {
				return pendingStatus(k), nil
			}
		}
	}
	return nil, fmt.Errorf("block %s: %w", h, rpc.ErrNotFound)
}

// BlockStatusByHeight answers for the finalized block at height or, above
// the finalized height, the block the consensus holds there that is
// furthest along: certified before proposed, then the latest round.
func (n *Node) BlockStatusByHeight(height uint64) (*rpc.BlockStatus, error) {
	for attempt := 0; attempt < 2; attempt++ {
		head := n.Head().Height
		if height <= head {
			return n.finalizedStatusAt(height)
		}
		if n.net == nil {
			break
		}
		var best *knownBlock
		for _, k := range n.knownAbove(head) {
			if k.height != height {
				continue
			}
			if best == nil || (k.certified && !best.certified) || (k.certified == best.certified && k.round > best.round) {
				best = &k
			}
		}
		if best != nil {
			return pendingStatus(*best), nil
		}
	}
	return nil, fmt.Errorf("block %d: %w", height, rpc.ErrNotFound)
}

// finalizedStatusAt is the status of the finalized block at height.
func (n *Node) finalizedStatusAt(height uint64) (*rpc.BlockStatus, error) {
	hash, err := n.db.GetRaw(heightKey(height))
	if errors.Is(err, store.ErrNotFound) {
		return nil, fmt.Errorf("block %d: %w", height, rpc.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("block status %d: %w", height, err)
	}
	return n.finalizedStatus(height, types.Hash(hash))
}

// finalizedStatus describes a finalized chain block; on a network it
// carries the consensus hash and round from the stored certificate.
func (n *Node) finalizedStatus(height uint64, chainHash types.Hash) (*rpc.BlockStatus, error) {
	out := &rpc.BlockStatus{Hash: chainHash, Height: height, Status: rpc.StatusFinalized}
	if n.net == nil {
		return out, nil
	}
	ch, round := n.net.genesis.Hash(), uint64(0)
	if height > 0 {
		c, err := n.certified(height)
		if err != nil {
			return nil, err
		}
		ch, round = c.QC.BlockHash, c.Block.Round
	}
	h := types.Hash(ch)
	e, r := splitRound(round)
	out.ConsensusHash, out.Round, out.Epoch = &h, &r, &e
	return out, nil
}

// pendingStatus describes a block above the finalized height: it has only
// its consensus hash.
func pendingStatus(k knownBlock) *rpc.BlockStatus {
	h := types.Hash(k.hash)
	e, r := splitRound(k.round)
	st := rpc.StatusProposed
	if k.certified {
		st = rpc.StatusCommitted
	}
	return &rpc.BlockStatus{Hash: h, ConsensusHash: &h, Height: k.height, Round: &r, Epoch: &e, Status: st}
}

// splitRound separates a consensus round into its epoch and the round
// within that epoch (rounds of epoch k start at roundBase(k)).
func splitRound(r uint64) (epoch, round uint64) {
	k := epochOfRound(r)
	return k, r - roundBase(k)
}
