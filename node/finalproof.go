package node

import (
	"fmt"

	"github.com/cowboy-chain/cowboy/consensus/simplex"
)

// The proof that blocks are final, shared by sync responses (node/sync.go)
// and finalized blocks pushed on the block topic (node/gossip.go): one
// check, so the two paths cannot drift apart.
//
// A batch is consecutive certified blocks (simplex.EncodeCertified). Each
// must name the one before as parent and justify, and its certificate must
// name it. The consensus's finality rule (docs/consensus.md rule 6, the
// spec's "a block is final when its direct child has a QC" with the
// consecutive-round Addition): a certified block whose justify is from the
// round right before its own makes its parent, and every ancestor, final.

// decodeCertifiedBatch decodes a batch without checking it.
func decodeCertifiedBatch(raws [][]byte) ([]simplex.Certified, error) {
	chain := make([]simplex.Certified, 0, len(raws))
	for i, raw := range raws {
		c, err := simplex.DecodeCertified(raw)
		if err != nil {
			return nil, fmt.Errorf("certified block %d of %d: %w", i, len(raws), err)
		}
		chain = append(chain, c)
	}
	return chain, nil
}

// provenFinal checks that chain starts on prev at height first and links
// up, within the current epoch, and returns the index of the highest block
// proven final, or -1 if none is. With a proof (a certified chain from the
// top block's child up to a block certified in the round right after its
// justify; an epoch's last block always comes with one, node/epoch.go) the
// whole batch is final and closing is that chain, checked; without one, a
// later block of the batch must prove the earlier ones final. The
// certificates of the blocks proven final are not checked here
// (verifyCertificates), so a caller that will not apply them does not pay
// for them.
func (n *Node) provenFinal(chain []simplex.Certified, prev simplex.Hash, first uint64, proof [][]byte) (final int, closing []simplex.Certified, err error) {
	ep := n.net.ep
	for i, c := range chain {
		b := c.Block
		if b == nil || b.Height != first+uint64(i) || b.Parent != prev || b.Justify == nil || b.Justify.BlockHash != prev {
			return -1, nil, fmt.Errorf("final proof: block %d of the batch does not extend the chain at height %d", i, first+uint64(i))
		}
		if b.Height > ep.last {
			return -1, nil, fmt.Errorf("final proof: block %d is past epoch %d's last block %d", b.Height, ep.number, ep.last)
		}
		prev = b.Hash()
		if c.QC == nil || c.QC.BlockHash != prev || c.QC.Height != b.Height || c.QC.Round != b.Round {
			return -1, nil, fmt.Errorf("final proof: block %d: certificate names another block", b.Height)
		}
	}
	if len(proof) > 0 {
		closing, err := n.checkProofChain(chain[len(chain)-1], proof)
		if err != nil {
			return -1, nil, err
		}
		return len(chain) - 1, closing, nil
	}
	// The highest block whose certificate verifies and whose justify is
	// from the round before its own proves its parent final.
	for i := len(chain) - 1; i >= 1; i-- {
		b := chain[i].Block
		if b.Justify.Round+1 == b.Round && n.verifyQC(chain[i].QC) {
			return i - 1, nil, nil
		}
	}
	return -1, nil, nil
}

// checkProofChain verifies that raws makes top final: certified blocks,
// each the child of the one before, the first a child of top, every
// certificate valid under the epoch's set, the last proposed in the round
// right after its justify's (the two-chain rule).
func (n *Node) checkProofChain(top simplex.Certified, raws [][]byte) ([]simplex.Certified, error) {
	if len(raws) == 0 || len(raws) > syncBatch {
		return nil, fmt.Errorf("final proof of %d blocks", len(raws))
	}
	chain, err := decodeCertifiedBatch(raws)
	if err != nil {
		return nil, fmt.Errorf("final proof: %w", err)
	}
	prev := top.QC.BlockHash
	for _, c := range chain {
		b := c.Block
		if b == nil || b.Parent != prev || b.Justify == nil || b.Justify.BlockHash != prev || c.QC == nil || c.QC.BlockHash != b.Hash() || c.QC.Height != b.Height || c.QC.Round != b.Round {
			return nil, fmt.Errorf("final proof: a proof block does not extend block %x", prev[:4])
		}
		if !n.verifyQC(b.Justify) || !n.verifyQC(c.QC) {
			return nil, fmt.Errorf("final proof: block %d: bad certificate", b.Height)
		}
		prev = b.Hash()
	}
	if tip := chain[len(chain)-1].Block; tip.Justify.Round+1 != tip.Round {
		return nil, fmt.Errorf("final proof: block %d is not certified in the round after its justify", tip.Height)
	}
	return chain, nil
}

// verifyCertificates checks the certificate of each block about to be
// applied: a block's own QC is the justify of its child, which the child's
// hash commits to only indirectly.
func (n *Node) verifyCertificates(chain []simplex.Certified) error {
	for _, c := range chain {
		if !n.verifyQC(c.QC) {
			return fmt.Errorf("final proof: block %d: bad certificate", c.Block.Height)
		}
	}
	return nil
}
