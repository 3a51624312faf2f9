package simplex

import (
	"bytes"
	"sort"
)

// KnownBlock is a block the node holds above its finalized height: a
// proposal it accepted or a block it fetched, with its certificate once
// it has one.
type KnownBlock struct {
	Block *Block
	Hash  Hash
	QC    *QC // nil while the block is only proposed
}

// Known lists the blocks the node holds above its finalized height, by
// height, then round, then hash, so the answer does not depend on map
// order. It is for reporting (RPC block status) and for the node to find
// a finalized block's certified child; the blocks must not be modified.
func (n *Node) Known() []KnownBlock {
	var out []KnownBlock
	for h, b := range n.blocks {
		if b.Height <= n.finalHeight {
			continue
		}
		k := KnownBlock{Block: b, Hash: h}
		if n.committed[h] {
			k.QC = n.qcs[h]
		}
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Block.Height != b.Block.Height {
			return a.Block.Height < b.Block.Height
		}
		if a.Block.Round != b.Block.Round {
			return a.Block.Round < b.Block.Round
		}
		return bytes.Compare(a.Hash[:], b.Hash[:]) < 0
	})
	return out
}
