package node

import (
	"errors"
	"fmt"
	"time"

	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/consensus/simplex"
	"github.com/cowboy-chain/cowboy/p2p"
	"github.com/cowboy-chain/cowboy/store"
)

// Block sync on the block topic, a direct request and response between two
// peers, canonical CBOR:
//
//	request  = [1, from_height, count, [], []]
//	response = [2, 0, 0, [certified, ...], epoch_proof]
//	certified = simplex.EncodeCertified; epoch_proof = [] or [certified, ...]
//
// A response holds consecutive finalized simplex blocks from from_height
// (at most syncBatch, at most syncMaxBytes). It ends at the first epoch's
// last block it reaches, and then carries that block's proof of finality
// (node/epoch.go): nothing in the next epoch can prove it, and the next
// epoch's certificates can only be checked after it is executed. The asker trusts none of it:
// the blocks must chain by hash from its own finalized tip, and a block is
// applied only when a later block of the batch proves it final by the
// consensus's rule: a certified block whose justify is from the round right
// before its own makes its parent (and every ancestor) final; that
// certificate is verified against the validator set (quorum by stake, BLS
// aggregate).
//
// Every node asks one peer in turn every syncEvery, and again at once after
// a response that moved its head (it is catching up). A full node applies
// whatever a response proves final. A validator normally finalizes through
// its own consensus (and fills small gaps by the consensus's FETCH), so it
// applies a response only when it proves at least validatorSyncMin blocks
// or when its finalized head has not moved for syncStuck: it is then far
// behind, or its peers no longer hold what FETCH would ask for. After a
// sync the consensus is rebuilt on the new finalized tip with the
// validator's HardState, never lower than the persisted one, so LastVoted
// and Locked never go backwards and it never votes twice in a round.
const (
	syncRequest  = 1
	syncResponse = 2
	syncBatch    = 64
	syncMaxBytes = 3 << 20
	// syncEvery is how often a node asks one peer for what follows its
	// head.
	syncEvery = time.Second
	// validatorSyncMin is how many blocks a sync response must prove final
	// for a validator to apply it while its consensus is moving.
	validatorSyncMin = 16
	// syncStuck is how long a validator's finalized head must stay put
	// before it applies any sync response.
	syncStuck = 3 * time.Second
)

type syncMsg struct {
	_      struct{} `cbor:",toarray"`
	Type   uint8
	From   uint64
	Count  uint64
	Blocks [][]byte
	Proof  [][]byte
}

// askSync sends a sync request for the blocks after the head to the next
// connected peer in turn; it reports whether it sent one.
func (n *Node) askSync() bool {
	net := n.net
	peers := net.host.Peers()
	if len(peers) == 0 {
		return false
	}
	net.syncTurn++
	p := peers[net.syncTurn%len(peers)]
	b, err := types.Marshal(&syncMsg{Type: syncRequest, From: n.Head().Height + 1, Count: syncBatch, Blocks: [][]byte{}, Proof: [][]byte{}})
	if err != nil {
		return false
	}
	net.host.Send(p.ID, p2p.TopicBlock, b)
	return true
}

// onSync answers a request from the store, or applies a response.
func (n *Node) onSync(pm p2p.Message) error {
	var m syncMsg
	if err := types.Unmarshal(pm.Payload, &m); err != nil {
		return fmt.Errorf("sync message: %w", err)
	}
	switch m.Type {
	case syncRequest:
		out := syncMsg{Type: syncResponse, Blocks: [][]byte{}, Proof: [][]byte{}}
		size := 0
		head := n.Head().Height
		length := n.net.ep.length
		for h := m.From; h <= head && h < m.From+min(m.Count, syncBatch) && h > 0; h++ {
			raw, err := n.db.GetRaw(certKey(h))
			if err != nil || size+len(raw) > syncMaxBytes {
				break
			}
			size += len(raw)
			out.Blocks = append(out.Blocks, raw)
			if (h+1)%length == 0 {
				proof, err := n.readEpochProof((h+1)/length - 1)
				if err != nil {
					return err
				}
				out.Proof = proof
				break
			}
		}
		b, err := types.Marshal(&out)
		if err != nil {
			return err
		}
		return n.net.host.Send(pm.From, p2p.TopicBlock, b)
	case syncResponse:
		before := n.Head().Height
		err := n.applySync(m.Blocks, m.Proof)
		if err == nil && n.Head().Height > before && n.net.syncEvery() > 0 {
			// Still catching up: ask for what follows now instead of at
			// the next syncEvery (a response holds at most syncBatch
			// blocks or syncMaxBytes). Caught up, the answer is empty and
			// the polling goes back to syncEvery.
			n.net.lastSync = time.Now()
			n.askSync()
		}
		return err
	}
	return fmt.Errorf("sync message of type %d", m.Type)
}

// applySync verifies a batch of finalized blocks and applies those proven
// final (see the comment at the top of this file).
func (n *Node) applySync(raws, epochProof [][]byte) error {
	if len(raws) == 0 || len(raws) > syncBatch {
		return nil
	}
	net := n.net
	head := n.Head().Height
	prev := net.genesis.Hash()
	if head > 0 {
		c, err := n.certified(head)
		if err != nil {
			return err
		}
		prev = c.QC.BlockHash
	}
	chain, err := decodeCertifiedBatch(raws)
	if err != nil {
		return err
	}
	final, closing, err := n.provenFinal(chain, prev, head+1, epochProof)
	if err != nil || final < 0 {
		return err
	}
	if net.index >= 0 && final+1 < validatorSyncMin && closing == nil && time.Since(net.advancedAt) < syncStuck {
		return nil // the consensus is keeping up on its own
	}
	if err := n.verifyCertificates(chain[:final+1]); err != nil {
		return err
	}
	ep := net.ep
	if err := n.replayFinal(chain[:final+1], closing); err != nil {
		return err
	}
	net.mu.Lock()
	net.synced += uint64(final + 1)
	net.mu.Unlock()
	if net.ep != ep {
		// The batch ended the epoch: the next epoch's instance was just
		// built on its last block (with the early messages replayed into
		// it); rebuilding it again would drop them.
		n.log.Debug("sync applied up to the epoch's end", "blocks", final+1, "head", n.Head().Height)
		return nil
	}
	n.log.Debug("sync applied; consensus restarts", "blocks", final+1, "head", n.Head().Height)
	return n.restartConsensus()
}

// replayFinal applies a run of finalized blocks in order through the
// block pipeline (applyFinals): each block executes while the one before
// it is synced and the senders of the one after it are recovered. closing
// is the proof of finality of the epoch's last block, if the run reaches
// it.
func (n *Node) replayFinal(chain, closing []simplex.Certified) error {
	_, err := n.applyFinals(chain, closing)
	return err
}

// recoverAhead decodes the payload of b, a finalized block the sync applies
// next, and recovers its senders on all cores, while the block before it
// is executed and committed: applyFinals then finds the payload decoded
// (payloadOf's cache, the same transaction objects) and every sender
// cached, so a full node's replay overlaps recovery, the largest cost of
// a block of transfers, with execution and the commit's fsync. It changes
// no state: what a block does is still decided by applyFinals alone, in
// order, so kill -9 safety and determinism are those of applyFinals. The
// channel closes when it is done.
func (n *Node) recoverAhead(b *simplex.Block) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		if p, err := n.payloadOf(b.Payload, b.Height); err == nil {
			recoverSenders(p.Txs)
		} // a bad payload: applyFinal reports it
	}()
	return done
}

// verifyQC checks a certificate against the current epoch's validator set;
// one of another epoch (its round >> 32) never verifies here.
func (n *Node) verifyQC(qc *simplex.QC) bool {
	set := n.net.ep.set
	if qc == nil || epochOfRound(qc.Round) != n.net.ep.number || len(qc.Signers) != (set.Len()+7)/8 || !set.IsQuorum(qc.Signers) {
		return false
	}
	for i := set.Len(); i < len(qc.Signers)*8; i++ {
		if qc.Signers.Has(i) {
			return false
		}
	}
	return n.net.ep.scheme.VerifyAggregate(qc.Signers.Indices(), simplex.VoteMessage(qc.BlockHash, qc.Height, qc.Round), qc.Signature) &&
		simplex.VerifyBeacon(n.net.ep.beaconScheme(), qc) == nil
}

// restartConsensus rebuilds the consensus on the new finalized tip after
// a sync. A full node has no hard state to keep. A validator keeps its
// HardState: the persisted one (written before any message it sent) raised
// to the running consensus's, so LastVoted and Locked never go backwards;
// its HighQC is the tip's certificate if that is from a later round, and
// its round is at least the one after that certificate.
func (n *Node) restartConsensus() error {
	net := n.net
	c, err := n.certified(n.Head().Height)
	if err != nil {
		return err
	}
	cfg := net.scfg
	cfg.FinalizedTip = c.Block
	if net.index >= 0 {
		hs, err := n.restoreState(c.QC)
		if err != nil {
			return err
		}
		cfg.Restore = hs
	}
	sx, err := simplex.NewNode(cfg)
	if err != nil {
		return fmt.Errorf("restart consensus at height %d: %w", c.Block.Height, err)
	}
	net.sx = sx
	net.pending = nil // a propose request of the old consensus
	net.mu.Lock()
	net.round = sx.Status().Round
	net.mu.Unlock()
	return nil
}

// restoreState is the HardState a validator's consensus restarts with on
// the finalized tip certified by tipQC (see restartConsensus).
func (n *Node) restoreState(tipQC *simplex.QC) (*simplex.HardState, error) {
	hs := &simplex.HardState{}
	raw, err := n.db.GetRaw(keyHardState)
	switch {
	case err == nil:
		if hs, err = simplex.DecodeHardState(raw); err != nil {
			return nil, fmt.Errorf("persisted hard state: %w", err)
		}
	case !errors.Is(err, store.ErrNotFound):
		return nil, fmt.Errorf("read hard state: %w", err)
	}
	st := n.net.sx.Status()
	out := &simplex.HardState{
		Round:     max(hs.Round, st.Round),
		LastVoted: max(hs.LastVoted, st.LastVoted),
		Locked:    max(hs.Locked, st.Locked),
		HighQC:    hs.HighQC,
		LastTC:    hs.LastTC,
	}
	if st.HighQC != nil && (out.HighQC == nil || st.HighQC.Round > out.HighQC.Round) {
		out.HighQC = st.HighQC
	}
	if tipQC != nil && (out.HighQC == nil || tipQC.Round > out.HighQC.Round) {
		out.HighQC = tipQC
	}
	if out.HighQC != nil {
		out.Round = max(out.Round, out.HighQC.Round+1)
	}
	return out, nil
}
