package node

import (
	"fmt"

	"github.com/cowboy-chain/cowboy/chain/fees"
	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/types"
)

// The block pipeline of the on-demand devnet (produceBurst) and of a
// validator or full node applying a run of finalized blocks (applyFinals:
// a Ready's finalized blocks, a sync answer, a pushed batch): block N+1 is
// executed and prepared in the store while block N is written and synced
// to disk (store.Prepared.Commit), so the core that made N does not wait
// idle on fsync. What stays exactly as without it:
//
//   - The state transition: N+1 executes on the state after N, read from
//     N's writes (an overlay) where N is not committed yet, otherwise from
//     the store; it runs on the block loop alone, as before, so nothing
//     of the overlap's scheduling reaches its state or its header.
//   - Durability: a block is shown (head, receipts, RPC, subscribers)
//     only once its commit is synced, in height order (finishCommit), and
//     Pebble's log is written in that order, so a kill -9 at any moment
//     leaves the chain at some block every reader was shown or a later
//     one, never a gap (TestKillDuringPipeline).
//
// At most two blocks are in flight: one committing, the next being built
// on it. The pipeline runs only inside produceBurst and applyFinals,
// which hold prodMu from their first block until the last is committed,
// so every other holder of prodMu (devnet controls, Close) and whoever
// reads the head after they return (the consensus, sync, the push) finds
// nothing in flight. A finalized block at the end of an epoch is drained
// before the next epoch's validator set is read from the state
// (TestKillDuringSyncPipeline covers the finalized path).

// burstBlocks bounds the blocks one produceBurst makes before it drains
// and lets the devnet controls waiting for prodMu in.
const burstBlocks = 16

// produceBurst makes blocks from the mempool, each built while the one
// before it is synced, until the pool is empty, a block comes out empty,
// or burstBlocks were made; it returns when they are all committed.
func (n *Node) produceBurst() ([]*types.Block, error) {
	n.prodMu.Lock()
	defer n.prodMu.Unlock()
	var made []*types.Block
	var err error
	for len(made) < burstBlocks {
		// Build ahead only on a backlog: when the pool holds less than the
		// last block took, the next block would come out smaller than it
		// can be, and on busy cores more, smaller blocks cost more than
		// the overlap saves (docs/benchmarks.md, issue 17 phase 4). Then
		// wait for the commit instead, while transactions keep arriving.
		if k := len(made); k > 0 && n.pool.Len() < len(made[k-1].Txs) {
			if err = n.drainLocked(); err != nil {
				break
			}
		}
		var b *types.Block
		if b, err = n.produceAhead(); err != nil {
			break
		}
		made = append(made, b)
		if len(b.Txs) == 0 || n.pool.Len() == 0 {
			break
		}
	}
	if derr := n.drainLocked(); err == nil {
		err = derr
	}
	if err != nil {
		return nil, err
	}
	return made, nil
}

// produceAhead is ProduceBlock on top of the block in flight, if any; it
// returns once the new block is prepared, with its commit started behind
// the one below it. The caller holds prodMu and drains before releasing
// it.
func (n *Node) produceAhead() (*types.Block, error) {
	parent, st, err := n.pipeTip()
	if err != nil {
		return nil, err
	}
	candidates := n.pool.Select(st, fees.NextBasefees(parent), n.cfg.MaxBlockTxs)
	t := max(n.blockTime(), parent.Time) // block time never goes backwards
	sb, err := n.stageBlock(parent, st, blockInput{Height: parent.Height + 1, Time: t, Proposer: n.proposer,
		Beacon: devnetBeacon(parent.Hash(), parent.Height+1), Txs: candidates}, nil)
	if err != nil {
		return nil, err
	}
	n.commitBehind(sb, st)
	return sb.block, nil
}

// pipeTip is what the next block builds on: the block in flight, if any
// (its header, and the state after it), else the head and the committed
// state. It first waits for the block under the one in flight, so at most
// two are in flight. The caller holds prodMu.
//
// The state after the block in flight is, when it can be, the very view
// that block executed on, carried on (state.StateDB.Rebase): it holds
// every account and record that block read or wrote at its value after
// the block, so the next block (which, under a steady load, mostly
// touches the same senders and recipients) reads and decodes none of them
// again. Everything it does not hold, that block did not write, so the
// committed state underneath has it: the block below was waited for.
// A view is carried once, to the next block staged; if that block is not
// staged (it failed), the next attempt reads through an overlay of the
// block's writes instead, as it does when the view grew past
// maxCarriedState.
func (n *Node) pipeTip() (*types.Header, *state.StateDB, error) {
	below := n.inflight
	if below == nil {
		return n.Head(), n.newState(), nil
	}
	// Two blocks in flight at most: the one under below is done.
	if bb := below.below; bb != nil {
		<-bb.done
		below.below = nil
	}
	select {
	case <-below.done:
		if below.err != nil {
			return nil, nil, below.err
		}
	default:
		n.pipelined.Add(1)
	}
	base := stateReader{n.db, n.cache}
	if st := below.after; st != nil {
		below.after = nil
		if st.Cached() <= maxCarriedState && st.Rebase(base) == nil {
			if n.checkCarried {
				if err := verifyCarried(below, st, base); err != nil {
					return nil, nil, err
				}
			}
			return below.block.Header, st, nil
		}
	}
	if below.overlay == nil {
		below.overlay = make(map[state.Key][]byte, len(below.state))
		for _, w := range below.state {
			below.overlay[state.Key(w.Key)] = w.Value
		}
	}
	return below.block.Header, state.New(overlayReader{layers: []map[state.Key][]byte{below.overlay}, base: base}), nil
}

// verifyCarried is the tests' guard on Rebase (Node.checkCarried): a
// carried view is right only while every state write of a block goes
// through the block's view. It waits for below, the block the view
// executed, to commit, then compares the view with the committed state
// (state.StateDB.Verify), so a writer that bypassed the view fails the
// pipeline tests instead of a later block's state root.
func verifyCarried(below *stagedBlock, st *state.StateDB, base stateReader) error {
	<-below.done
	if below.err != nil {
		return below.err
	}
	if err := st.Verify(base); err != nil {
		return fmt.Errorf("state view carried past block %d: %w", below.block.Header.Height, err)
	}
	return nil
}

// maxCarriedState bounds the accounts and records a view carried from
// block to block may hold (pipeTip): about 20 MB, the accounts of 16
// blocks of 2,000 transfers each between fresh senders and recipients.
// Past it the next block starts from an empty view.
const maxCarriedState = 1 << 16

// commitBehind starts the commit of sb, a block staged on pipeTip, behind
// the block in flight: it is written (and shown) only once that one is,
// and not at all if that one fails. sb becomes the block in flight, and
// st, the view sb executed on, the state the next block starts from. The
// caller holds prodMu.
func (n *Node) commitBehind(sb *stagedBlock, st *state.StateDB) {
	below := n.inflight
	sb.after = st
	sb.below = below
	n.inflight = sb
	go func() {
		if below != nil {
			<-below.done
			if below.err != nil {
				sb.prep.Discard()
				sb.err = fmt.Errorf("block %d not committed: %w", sb.block.Header.Height, below.err)
				close(sb.done)
				return
			}
		}
		sb.err = n.finishCommit(sb)
		close(sb.done)
	}()
}

// drainLocked waits until the block in flight, if any, is committed and
// returns its error. The caller holds prodMu.
func (n *Node) drainLocked() error {
	sb := n.inflight
	if sb == nil {
		return nil
	}
	<-sb.done
	n.inflight = nil
	return sb.err
}

// overlayReader reads state through the writes of blocks prepared but not
// yet committed, newest first, then the committed state.
type overlayReader struct {
	layers []map[state.Key][]byte
	base   stateReader
}

func (r overlayReader) GetState(k state.Key) ([]byte, error) {
	for _, l := range r.layers {
		if v, ok := l[k]; ok {
			return v, nil
		}
	}
	return r.base.GetState(k)
}

var _ state.Reader = overlayReader{}
