package node

import (
	"errors"
	"fmt"
	"math/big"
	"sync"

	"github.com/cowboy-chain/cowboy/chain/execution"
	"github.com/cowboy-chain/cowboy/chain/fees"
	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/system/runner"
	"github.com/cowboy-chain/cowboy/chain/system/staking"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/p2p"
	"github.com/cowboy-chain/cowboy/rpc"
	"github.com/cowboy-chain/cowboy/store"
)

// The node is the RPC server's backend.
var _ rpc.Backend = (*Node)(nil)

// ChainID is the chain's id (§1.1 chain-id separation).
func (n *Node) ChainID() uint64 { return n.cfg.ChainID }

// LatestHeight is the height of the last committed block.
func (n *Node) LatestHeight() uint64 { return n.Head().Height }

// BlockByNumber reads a committed block.
func (n *Node) BlockByNumber(height uint64) (*types.Block, error) { return n.blockByNumber(height) }

// BlockByHash reads a committed block.
func (n *Node) BlockByHash(h types.Hash) (*types.Block, error) { return n.blockByHash(h) }

// Account reads the account as of the block Head() reports.
func (n *Node) Account(addr types.Address) (uint64, *big.Int, error) {
	st := n.headState()
	acc := st.Account(addr)
	if err := st.Err(); err != nil {
		return 0, nil, err
	}
	return acc.Nonce, acc.Balance, nil
}

// PendingNonce counts the sender's queued transactions.
func (n *Node) PendingNonce(addr types.Address) (uint64, error) {
	nonce, _, err := n.Account(addr)
	if err != nil {
		return 0, err
	}
	return n.pool.PendingNonce(addr, nonce), nil
}

// SendTransaction validates tx against the next block's basefees and the
// committed state and queues it. The error, if any, is an
// *execution.TxError whose Reason says which rule failed.
func (n *Node) SendTransaction(tx *types.Tx) error {
	return n.SendTransactions([]*types.Tx{tx})[0]
}

// The node admits a JSON-RPC batch's transactions together.
var _ rpc.BatchSender = (*Node)(nil)

// SendTransactions admits txs as SendTransaction does one at a time, in
// slice order, but recovers their signatures and checks them against the
// committed state on all cores (mempool.AddBatch): the RPC server hands
// it a whole batch of cowboy_sendRawTransaction. The accepted ones are
// announced to subscribers and gossiped, and the block loop is woken once.
func (n *Node) SendTransactions(txs []*types.Tx) []error {
	view := newAdmissionView(stateReader{n.db, n.cache})
	errs := n.pool.AddBatch(txs, view, fees.NextBasefees(n.Head()))
	accepted := false
	for i, tx := range txs {
		if errs[i] != nil {
			if err := view.failure(); err != nil {
				// A refusal may come from a failed read (it reads as an
				// empty account): not the sender's fault, say so.
				errs[i] = fmt.Errorf("read committed state: %w", err)
			}
			continue
		}
		accepted = true
		n.events.PublishPendingTx(tx)
		if n.net != nil {
			// Gossip it so that whoever proposes next has it.
			if perr := n.net.host.Publish(p2p.TopicTx, tx.Encode()); perr != nil {
				n.log.Debug("gossip transaction", "tx", tx.Hash(), "err", perr)
			}
		}
	}
	if accepted {
		n.notify()
	}
	return errs
}

// SubmitBatch validates many transactions at once, recovering signatures on
// all cores. Used by benchmarks and load tests.
func (n *Node) SubmitBatch(txs []*types.Tx) []error {
	errs := n.pool.AddBatch(txs, committedView{stateReader{n.db, n.cache}}, fees.NextBasefees(n.Head()))
	n.notify()
	return errs
}

// TransactionByHash looks in the last blocks' transactions (kept as they
// were executed, senders cached), then in the committed index, then in the
// mempool.
func (n *Node) TransactionByHash(h types.Hash) (*types.Tx, *rpc.TxLocation, error) {
	if t, ok := n.recent.get(h); ok && t.loc.Height <= n.Head().Height {
		loc := t.loc
		return t.tx, &loc, nil
	}
	loc, err := n.txLocation(h)
	if errors.Is(err, rpc.ErrNotFound) {
		if tx, ok := n.pool.Get(h); ok {
			return tx, nil, nil
		}
		return nil, nil, err
	}
	if err != nil {
		return nil, nil, err
	}
	b, err := n.blockByHash(loc.BlockHash)
	if err != nil {
		return nil, nil, err
	}
	if loc.Index >= len(b.Txs) { // a job continuation's receipt (runners.go): no transaction
		return nil, nil, fmt.Errorf("%s is a job continuation of block %d, not a transaction: %w", h, loc.Height, rpc.ErrNotFound)
	}
	return b.Txs[loc.Index], loc, nil
}

func (n *Node) txLocation(h types.Hash) (*rpc.TxLocation, error) {
	raw, err := n.db.Get(store.TxIndexDB, txIndexKey(h))
	if errors.Is(err, store.ErrNotFound) {
		return nil, fmt.Errorf("transaction %s: %w", h, rpc.ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	var pos []uint64
	if err := types.Unmarshal(raw, &pos); err != nil || len(pos) != 2 {
		return nil, fmt.Errorf("tx index entry for %s is corrupt", h)
	}
	// The store shows a block's receipts a moment before the head moves to
	// it; until then the transaction counts as pending, so whoever sees a
	// receipt also sees its block as latest.
	if pos[0] > n.Head().Height {
		return nil, fmt.Errorf("transaction %s: %w", h, rpc.ErrNotFound)
	}
	hash, err := n.db.GetRaw(heightKey(pos[0]))
	if err != nil {
		return nil, fmt.Errorf("tx %s: block %d: %w", h, pos[0], err)
	}
	return &rpc.TxLocation{BlockHash: types.Hash(hash), Height: pos[0], Index: int(pos[1])}, nil
}

// Receipt reads a committed receipt.
func (n *Node) Receipt(h types.Hash) (*types.Receipt, *rpc.TxLocation, error) {
	var loc *rpc.TxLocation
	if t, ok := n.recent.get(h); ok && t.loc.Height <= n.Head().Height {
		l := t.loc
		loc = &l
	} else {
		var err error
		if loc, err = n.txLocation(h); err != nil {
			return nil, nil, err
		}
	}
	raw, err := n.db.Get(store.TxReceiptsDB, receiptKey(h))
	if err != nil {
		return nil, nil, fmt.Errorf("receipt %s: %w", h, err)
	}
	r, err := types.DecodeReceipt(raw)
	if err != nil {
		return nil, nil, err
	}
	return r, loc, nil
}

// Basefees are what the next block charges.
func (n *Node) Basefees() (cycle, cell uint64, nextHeight uint64) {
	h := n.Head()
	bf := fees.NextBasefees(h)
	return bf.Cycle, bf.Cell, h.Height + 1
}

// SuggestedTip is the tip per cycle and per cell that EstimateFees offers:
// one base unit, so the proposer has a reason to include the transaction.
const SuggestedTip = 1

// EstimateFees follows the EIP-1559 wallet practice: limits = what the
// transaction uses (a transfer exactly its intrinsic cost; a deployment or
// actor call is simulated against the latest state and given 25% headroom,
// since state may change before it is included), max fee = 2 × the next
// basefee + tip, which survives six full blocks of basefee rises
// (1.125^6 ≈ 2.03). The simulation runs as from (the zero address when
// the sender is not given) and moves value as the transaction would.
func (n *Node) EstimateFees(from, to *types.Address, value *big.Int, payload []byte) (rpc.FeeEstimate, error) {
	tx := &types.Tx{To: to, Payload: payload}
	cycles, cells := fees.Intrinsic(execution.KindOf(tx), len(payload))
	if to == nil || *to == staking.Address || runner.Handles(*to) || (len(payload) > 0 && n.newState().IsActor(*to)) {
		req := rpc.CallRequest{To: to, Value: value, Payload: payload}
		if from != nil {
			req.From = *from
		}
		rc, err := n.Call(req)
		if err != nil {
			return rpc.FeeEstimate{}, err
		}
		if rc.Status != types.ReceiptSuccess {
			return rpc.FeeEstimate{}, &execution.TxError{Code: execution.ErrWouldFail.Code,
				Msg: "the transaction would fail against the latest state: " + rc.Error}
		}
		cycles = min(fees.MaxTxCycles, max(cycles, rc.CyclesUsed+rc.CyclesUsed/4))
		cells = min(fees.MaxTxCells, max(cells, rc.CellsUsed+rc.CellsUsed/4))
	}
	bc, bb, _ := n.Basefees()
	e := rpc.FeeEstimate{
		CyclesLimit: cycles, CellsLimit: cells,
		TipPerCycle: SuggestedTip, TipPerCell: SuggestedTip,
		MaxFeePerCycle: 2*bc + SuggestedTip, MaxFeePerCell: 2*bb + SuggestedTip,
	}
	e.MaxCost = fees.MaxCost(e.CyclesLimit, e.CellsLimit, e.MaxFeePerCycle, e.MaxFeePerCell)
	return e, nil
}

// TotalSupply is the CBY in existence after the last block; it falls as
// basefees burn.
func (n *Node) TotalSupply() (*big.Int, error) {
	st := n.headState()
	s := st.Supply()
	return s, st.Err()
}

// The node proves state records (cowboy_getProof).
var _ rpc.Prover = (*Node)(nil)

// Proof proves an account record, or an actor storage slot, at a retained
// height against that block's state root.
func (n *Node) Proof(addr types.Address, slot *types.Hash, height uint64) (*rpc.StateProof, error) {
	b, err := n.blockByNumber(height)
	if err != nil {
		return nil, err
	}
	key := rpc.StoreKeyFor(addr, slot)
	p, v, err := n.db.ProveValue(store.StateDB, store.Key(key), height)
	if errors.Is(err, store.ErrNotRetained) {
		return nil, fmt.Errorf("%v: %w", err, rpc.ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	return &rpc.StateProof{Header: b.Header, StoreKey: key, Value: v, Proof: p}, nil
}

// committedView reads accounts straight from the committed state, safe for
// concurrent use (the mempool checks a batch on all cores). A read failure
// reads as an empty account, which refuses the transaction.
type committedView struct{ r stateReader }

func (v committedView) account(a types.Address) *state.Account {
	acc, _ := readAccount(v.r, a)
	return acc
}

// readAccount reads a committed account; on a failure it returns the empty
// account and the error.
func readAccount(r stateReader, a types.Address) (*state.Account, error) {
	raw, err := r.GetState(state.AccountKey(a))
	if err == nil && raw != nil {
		acc, derr := state.DecodeAccount(raw)
		if derr == nil {
			return acc, nil
		}
		err = fmt.Errorf("decode account %s: %w", a, derr)
	}
	return &state.Account{Balance: new(big.Int)}, err
}

// admissionView is committedView for SendTransactions: it also keeps the
// first read failure, so a refusal it caused is reported as the node's
// failure (-32603), not the sender's.
type admissionView struct {
	r   stateReader
	mu  *sync.Mutex
	err *error
}

func newAdmissionView(r stateReader) admissionView {
	return admissionView{r: r, mu: new(sync.Mutex), err: new(error)}
}

func (v admissionView) account(a types.Address) *state.Account {
	acc, err := readAccount(v.r, a)
	if err != nil {
		v.mu.Lock()
		if *v.err == nil {
			*v.err = err
		}
		v.mu.Unlock()
	}
	return acc
}

func (v admissionView) failure() error {
	v.mu.Lock()
	defer v.mu.Unlock()
	return *v.err
}

// Nonce is the committed nonce.
func (v admissionView) Nonce(a types.Address) uint64 { return v.account(a).Nonce }

// Balance is the committed balance.
func (v admissionView) Balance(a types.Address) *big.Int { return v.account(a).Balance }

// NonceBalance reads the account once for both.
func (v admissionView) NonceBalance(a types.Address) (uint64, *big.Int) {
	acc := v.account(a)
	return acc.Nonce, acc.Balance
}

// Nonce is the committed nonce.
func (v committedView) Nonce(a types.Address) uint64 { return v.account(a).Nonce }

// Balance is the committed balance.
func (v committedView) Balance(a types.Address) *big.Int { return v.account(a).Balance }

// NonceBalance reads and decodes the account once for both, as the
// mempool's admission of every arriving transaction needs.
func (v committedView) NonceBalance(a types.Address) (uint64, *big.Int) {
	acc := v.account(a)
	return acc.Nonce, acc.Balance
}
