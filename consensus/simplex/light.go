package simplex

import (
	"errors"
	"fmt"
)

// VerifyCertified checks a certified block from outside the consensus (a
// light client, `cowboy beacon verify`): the certificate names this very
// block (its id recomputed from the block's fields, height and round
// equal), its signers are a stake quorum of set (rule 3: strictly more
// than 2/3), and their aggregate signature on the vote message verifies
// under their keys in scheme. It says nothing of σ (VerifyBeacon, or
// CheckRandomness) nor of finality: a certified block of a round whose
// child was never certified is not final (rule 6).
func VerifyCertified(set *ValidatorSet, scheme Scheme, c Certified) error {
	if c.Block == nil || c.QC == nil {
		return errors.New("certified block: no block or no certificate")
	}
	b, qc := c.Block, c.QC
	if h := b.Hash(); qc.BlockHash != h {
		return fmt.Errorf("certificate names block %s, the block's id is %s", Short(qc.BlockHash), Short(h))
	}
	if qc.Height != b.Height || qc.Round != b.Round {
		return fmt.Errorf("certificate of height %d round %d for a block of height %d round %d", qc.Height, qc.Round, b.Height, b.Round)
	}
	if !set.validBitmap(qc.Signers) {
		return fmt.Errorf("%v: signer bitmap does not fit a set of %d", qc, set.Len())
	}
	if !set.IsQuorum(qc.Signers) {
		return fmt.Errorf("%v: signers hold at most 2/3 of the set's stake", qc)
	}
	if !scheme.VerifyAggregate(qc.Signers.Indices(), VoteMessage(qc.BlockHash, qc.Height, qc.Round), qc.Signature) {
		return fmt.Errorf("%v: the aggregate signature does not verify under the signers' keys", qc)
	}
	return nil
}
