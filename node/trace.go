package node

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/cowboy-chain/cowboy/chain/execution"
	"github.com/cowboy-chain/cowboy/chain/fees"
	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/pvm"
	"github.com/cowboy-chain/cowboy/pvm/vm"
	"github.com/cowboy-chain/cowboy/rpc"
	"github.com/cowboy-chain/cowboy/store"
)

// Traces (cowboy_traceTransaction, cowboy tx trace). A committed
// transaction is replayed: its whole block runs again through
// execution.Build, on the state retained at the parent's height, with a
// Tracer that records every handler and pvm_host call. The tracer only
// reads the meter, so costs are those of the original run, and the trace
// is refused unless the replay's receipt for the transaction equals the
// committed one byte for byte: a trace is of what happened, or nothing.

var _ rpc.TxTracer = (*Node)(nil)

// maxTraceback bounds a handler's traceback in a trace.
const maxTraceback = 8 << 10

// TraceTransaction replays a committed transaction and returns its trace.
func (n *Node) TraceTransaction(h types.Hash) (*rpc.TraceJSON, error) {
	loc, err := n.txLocation(h)
	if err != nil {
		return nil, err
	}
	b, err := n.blockByHash(loc.BlockHash)
	if err != nil {
		return nil, err
	}
	height := b.Header.Height
	parent, err := n.blockByNumber(height - 1)
	if err != nil {
		return nil, fmt.Errorf("trace %s: parent block: %w", h, err)
	}
	if _, err := n.db.Root(store.StateDB, height-1); err != nil {
		return nil, fmt.Errorf("trace %s: the state before block %d is no longer retained (a node keeps the last --retain-heights): %w", h, height, rpc.ErrNotRetained)
	}
	st := state.New(retainedReader{db: n.db, height: height - 1})
	if op, err := n.devOpOf(height); err != nil {
		return nil, fmt.Errorf("trace %s: %w", h, err)
	} else if op != nil {
		if err := op.apply(st); err != nil {
			return nil, fmt.Errorf("trace %s: replay the devnet change of block %d: %w", h, height, err)
		}
	}
	bc := &execution.BlockContext{ChainID: n.cfg.ChainID, Height: height, Time: b.Header.Time, Proposer: b.Header.Proposer,
		Basefees: fees.NextBasefees(parent.Header), LastBlockCycles: parent.Header.CyclesUsed}
	// R_n as the block was executed with (it orders the block's
	// transactions and is what pvm_host.randomness derives from, §3.4): on
	// a validator network the threshold beacon's output carried by the QC
	// where there is one, else the proposer's VRF (applyFinal). Signers
	// are left out: they feed only staking.EndBlock, which runs after
	// every transaction, so no receipt depends on them.
	if n.net == nil {
		bc.Beacon = devnetBeacon(parent.Header.Hash(), height)
	} else {
		c, err := n.certified(height)
		if err != nil {
			return nil, fmt.Errorf("trace %s: %w", h, err)
		}
		bc.Beacon = blockRandomness(c)
	}
	tr := &txTracer{target: h}
	bc.Tracer = tr
	txs := make([]*types.Tx, len(b.Txs))
	copy(txs, b.Txs)
	recoverSenders(txs)
	res, err := execution.Build(st, bc, txs)
	if err != nil {
		return nil, fmt.Errorf("trace %s: replay block %d: %w", h, height, err)
	}
	committed, _, err := n.Receipt(h)
	if err != nil {
		return nil, fmt.Errorf("trace %s: committed receipt: %w", h, err)
	}
	want, err := committed.Encode()
	if err != nil {
		return nil, err
	}
	var got []byte
	for i, tx := range res.Txs {
		if tx.Hash() == h {
			if got, err = res.Receipts[i].Encode(); err != nil {
				return nil, err
			}
		}
	}
	if !bytes.Equal(got, want) {
		return nil, fmt.Errorf("trace %s: the replay of block %d did not reproduce the committed receipt, so no trace is given (the node's state or code differs from when the block was made)", h, height)
	}
	tx := b.Txs[loc.Index]
	rj, err := rpc.NewReceiptJSON(committed, tx, *loc)
	if err != nil {
		return nil, err
	}
	if tr.handlers == nil {
		tr.handlers = []*rpc.TraceHandlerJSON{}
	}
	return &rpc.TraceJSON{TransactionHash: rpc.Hash(h), BlockHash: rpc.Hash(loc.BlockHash), BlockNumber: rpc.Quantity(height),
		Receipt: rj, Handlers: tr.handlers}, nil
}

// retainedReader reads the state as it was at a retained height.
type retainedReader struct {
	db     *store.Store
	height uint64
}

func (r retainedReader) GetState(k state.Key) ([]byte, error) {
	_, v, err := r.db.ProveValue(store.StateDB, store.Key(k), r.height)
	return v, err
}

// txTracer records the handlers of one transaction of a replayed block.
type txTracer struct {
	target   types.Hash
	active   bool
	handlers []*rpc.TraceHandlerJSON
	cur      *rpc.TraceHandlerJSON
}

func (t *txTracer) TxStart(tx *types.Tx) { t.active = tx.Hash() == t.target }
func (t *txTracer) TxEnd()               { t.active = false }

func (t *txTracer) Handler(m execution.HandlerInfo, h pvm.Host) pvm.Host {
	if !t.active {
		t.cur = nil
		return h
	}
	t.cur = &rpc.TraceHandlerJSON{From: rpc.Address(m.From), To: rpc.Address(m.To), Method: m.Method,
		Depth: rpc.Quantity(m.Depth), Deploy: m.Deploy, HostCalls: []*rpc.TraceHostCallJSON{}}
	t.handlers = append(t.handlers, t.cur)
	return tracingHost{Host: h, t: t}
}

func (t *txTracer) HandlerEnd(used pvm.Result, err error) {
	if t.cur == nil {
		return
	}
	t.cur.CyclesUsed, t.cur.CellsUsed = rpc.Quantity(used.CyclesUsed), rpc.Quantity(used.CellsUsed)
	t.cur.Status = "success"
	if err != nil {
		t.cur.Status = "failed"
		t.cur.Error = pvm.ErrorSummary(err)
		var pe *vm.PyError
		if errors.As(err, &pe) {
			tb := pe.Traceback
			if len(tb) > maxTraceback {
				tb = "…" + tb[len(tb)-maxTraceback:]
			}
			t.cur.Traceback = tb
		}
	}
	t.cur = nil
}

// tracingHost passes every call to the handler's host unchanged and
// receives the pvm_host call reports (pvm.HostCallObserver).
type tracingHost struct {
	pvm.Host
	t *txTracer
}

func (h tracingHost) ObserveHostCall(c pvm.HostCall) {
	if h.t.cur == nil {
		return
	}
	args := c.Args
	if args == nil {
		args = []string{}
	}
	h.t.cur.HostCalls = append(h.t.cur.HostCalls, &rpc.TraceHostCallJSON{Name: c.Name, Args: args, Result: c.Result,
		Error: c.Err, Cycles: rpc.Quantity(c.Cycles), Cells: rpc.Quantity(c.Cells)})
}
