package mempool

import (
	"bytes"
	"errors"
	"fmt"
	"math/big"
	"runtime"
	"sync"

	"github.com/cowboy-chain/cowboy/chain/execution"
	"github.com/cowboy-chain/cowboy/chain/fees"
	"github.com/cowboy-chain/cowboy/chain/types"
)

// Config bounds the pool; every limit is explicit so a flood of
// transactions cannot grow memory without end.
type Config struct {
	ChainID   uint64
	MaxTxs    int    // all transactions in the pool; default 65,536
	MaxGap    uint64 // how far beyond the account nonce a nonce may be; default 64
	PriceBump int    // % a replacement must raise the effective fee; default 10
}

// Pool errors beyond execution's validity errors.
var (
	ErrKnown       = &execution.TxError{Code: "already_known"}
	ErrUnderpriced = &execution.TxError{Code: "replacement_underpriced"}
	ErrPoolFull    = &execution.TxError{Code: "mempool_full"}
)

// StateView is what the pool needs of the committed state.
type StateView interface {
	Nonce(types.Address) uint64
	Balance(types.Address) *big.Int
}

// accountView is a StateView that reads an account's nonce and balance
// with one lookup; admit, which needs both for every arriving transaction,
// uses it when the view offers it.
type accountView interface {
	NonceBalance(types.Address) (uint64, *big.Int)
}

func nonceBalance(st StateView, a types.Address) (uint64, *big.Int) {
	if av, ok := st.(accountView); ok {
		return av.NonceBalance(a)
	}
	return st.Nonce(a), st.Balance(a)
}

// Pool is safe for concurrent use.
type Pool struct {
	cfg     Config
	mu      sync.Mutex
	senders map[types.Address]*senderTxs
	byHash  map[types.Hash]*entry
}

type entry struct {
	tx   *types.Tx
	hash types.Hash // tx.Hash(), kept here for the pool's own lookups
	from types.Address
	// s is from's senderTxs, the one that holds this entry while it is in
	// the pool (a senderTxs leaves p.senders only once it holds nothing),
	// so Select and Remove reach it without a lookup by address.
	s    *senderTxs
	lane fees.Lane
	// cycles and cells are the intrinsic cost (§17.2, §17.4), the least
	// the transaction uses in a block: Select's block budget.
	cycles, cells uint64
}

// senderTxs is one sender's pending transactions by nonce. A sender's
// nonces are a short run (admitted at most MaxGap above its account
// nonce, pruned once the account passes them), so they sit in a slice
// indexed by nonce: a lookup is an index, where a map per sender cost a
// hash, a probe and an allocation on every add, Select step and Remove.
type senderTxs struct {
	base uint64 // the account's committed nonce when last seen
	// held[i] is the entry of nonce first+i, nil where none is held; the
	// slice is trimmed, so while it is not empty its first and last
	// elements are set and first is the lowest nonce held (Prune skips a
	// sender whose account nonce has not passed it).
	held  []*entry
	first uint64
}

// get is the entry held for nonce, or nil.
func (s *senderTxs) get(nonce uint64) *entry {
	if nonce < s.first || nonce-s.first >= uint64(len(s.held)) {
		return nil
	}
	return s.held[nonce-s.first]
}

// put holds e for nonce, in place of any entry held for it.
func (s *senderTxs) put(nonce uint64, e *entry) {
	switch {
	case len(s.held) == 0:
		s.held, s.first = append(s.held[:0], e), nonce
	case nonce < s.first:
		grown := make([]*entry, s.first-nonce+uint64(len(s.held)))
		copy(grown[s.first-nonce:], s.held)
		grown[0] = e
		s.held, s.first = grown, nonce
	default:
		for nonce-s.first >= uint64(len(s.held)) {
			s.held = append(s.held, nil)
		}
		s.held[nonce-s.first] = e
	}
}

// dropBelow releases the entries of the nonces below n, deleting each
// from byHash, and trims the slice.
func (s *senderTxs) dropBelow(n uint64, byHash map[types.Hash]*entry) {
	for len(s.held) > 0 && s.first < n {
		if e := s.held[0]; e != nil {
			delete(byHash, e.hash)
		}
		s.held[0] = nil
		s.held, s.first = s.held[1:], s.first+1
	}
	s.trim()
}

// del releases nonce's entry and trims the slice.
func (s *senderTxs) del(nonce uint64) {
	s.held[nonce-s.first] = nil
	s.trim()
}

// trim drops the unset elements at both ends.
func (s *senderTxs) trim() {
	for len(s.held) > 0 && s.held[0] == nil {
		s.held, s.first = s.held[1:], s.first+1
	}
	for len(s.held) > 0 && s.held[len(s.held)-1] == nil {
		s.held = s.held[:len(s.held)-1]
	}
}

// New makes an empty pool.
func New(cfg Config) *Pool {
	if cfg.MaxTxs == 0 {
		cfg.MaxTxs = 1 << 16
	}
	if cfg.MaxGap == 0 {
		cfg.MaxGap = 64
	}
	if cfg.PriceBump == 0 {
		cfg.PriceBump = 10
	}
	return &Pool{cfg: cfg, senders: map[types.Address]*senderTxs{}, byHash: map[types.Hash]*entry{}}
}

// Len is the number of transactions held.
func (p *Pool) Len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.byHash)
}

// Add validates tx against the rules and the committed state and keeps it.
// The basefees are those the next block will charge: a transaction whose
// max fee is below them is refused.
func (p *Pool) Add(tx *types.Tx, st StateView, bf execution.Basefees) error {
	from, err := execution.CheckStateless(tx, p.cfg.ChainID)
	if err != nil {
		return err
	}
	return p.insert(tx, from, st, bf)
}

// AddBatch validates many transactions, recovering their signatures and
// checking them against the state on all cores, and returns one error (or
// nil) per transaction. st must be safe for concurrent reads.
func (p *Pool) AddBatch(txs []*types.Tx, st StateView, bf execution.Basefees) []error {
	errs := make([]error, len(txs))
	froms := make([]types.Address, len(txs))
	bases := make([]uint64, len(txs))
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	next := make(chan int, len(txs))
	for i := range txs {
		next <- i
	}
	close(next)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				froms[i], errs[i] = execution.CheckStateless(txs[i], p.cfg.ChainID)
				txs[i].Hash() // cached on the transaction: keep keccak off the serial path
				if errs[i] == nil {
					bases[i], errs[i] = p.admit(txs[i], froms[i], st, bf)
				}
			}
		}()
	}
	wg.Wait()
	for i, tx := range txs {
		if errs[i] == nil {
			errs[i] = p.add(tx, froms[i], bases[i], bf)
		}
	}
	return errs
}

func (p *Pool) insert(tx *types.Tx, from types.Address, st StateView, bf execution.Basefees) error {
	base, err := p.admit(tx, from, st, bf)
	if err != nil {
		return err
	}
	return p.add(tx, from, base, bf)
}

// admit applies the rules that read the committed state: basefee, nonce
// window, balance. It takes no lock, so AddBatch runs it on all cores.
func (p *Pool) admit(tx *types.Tx, from types.Address, st StateView, bf execution.Basefees) (uint64, error) {
	if err := execution.CheckFees(tx, bf); err != nil {
		return 0, err
	}
	base, balance := nonceBalance(st, from)
	if tx.Nonce < base {
		return 0, &execution.TxError{Code: execution.ErrNonceTooLow.Code,
			Msg: fmt.Sprintf("nonce %d is too low: account %s is at nonce %d", tx.Nonce, from, base)}
	}
	if tx.Nonce > base+p.cfg.MaxGap {
		return 0, &execution.TxError{Code: execution.ErrNonceTooHigh.Code,
			Msg: fmt.Sprintf("nonce %d is too high: account %s is at nonce %d and the pool holds at most %d ahead", tx.Nonce, from, base, p.cfg.MaxGap)}
	}
	if need := execution.UpfrontCost(tx); balance.Cmp(need) < 0 {
		return 0, &execution.TxError{Code: execution.ErrInsufficientFunds.Code,
			Msg: fmt.Sprintf("account %s holds %s base units, needs %s (value + limits × max fees)", from, balance, need)}
	}
	return base, nil
}

// add puts an admitted transaction in the pool, or replaces one.
func (p *Pool) add(tx *types.Tx, from types.Address, base uint64, bf execution.Basefees) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	h := tx.Hash()
	if _, ok := p.byHash[h]; ok {
		return &execution.TxError{Code: ErrKnown.Code, Msg: fmt.Sprintf("transaction %s is already in the pool", h)}
	}
	s := p.senders[from]
	fresh := s == nil
	if fresh {
		// Joins p.senders only once the transaction is taken: a refused
		// first transaction must leave nothing behind (Prune skips a
		// sender whose account nonce is not above first, so an empty entry
		// would stay).
		s = &senderTxs{}
	}
	s.base = base
	e := &entry{tx: tx, hash: h, from: from, s: s, lane: execution.LaneOf(tx)}
	e.cycles, e.cells = fees.TxIntrinsic(tx)
	if old := s.get(tx.Nonce); old != nil {
		if !p.outbids(tx, old.tx, bf) {
			return &execution.TxError{Code: ErrUnderpriced.Code, Msg: fmt.Sprintf(
				"a transaction with nonce %d from %s is already pending; a replacement must raise every max fee and tip and the effective fee by at least %d%%",
				tx.Nonce, from, p.cfg.PriceBump)}
		}
		delete(p.byHash, old.hash)
	} else if len(p.byHash) >= p.cfg.MaxTxs {
		return &execution.TxError{Code: ErrPoolFull.Code, Msg: fmt.Sprintf("the mempool is full (%d transactions); retry later", p.cfg.MaxTxs)}
	}
	if fresh {
		p.senders[from] = s
	}
	s.put(tx.Nonce, e)
	p.byHash[h] = e
	return nil
}

// outbids: a replacement raises no price below the old one and raises the
// §6.4 effective fee by PriceBump percent.
func (p *Pool) outbids(n, o *types.Tx, bf execution.Basefees) bool {
	if n.MaxFeePerCycle < o.MaxFeePerCycle || n.MaxFeePerCell < o.MaxFeePerCell ||
		n.TipPerCycle < o.TipPerCycle || n.TipPerCell < o.TipPerCell {
		return false
	}
	nf, of := fees.TxOrderingFee(n, bf), fees.TxOrderingFee(o, bf)
	lhs := new(big.Int).Mul(nf.Big(), big.NewInt(100))
	rhs := new(big.Int).Mul(of.Big(), big.NewInt(int64(100+p.cfg.PriceBump)))
	return lhs.Cmp(rhs) >= 0 && nf.Cmp(of) > 0
}

// Get returns a pending transaction by hash.
func (p *Pool) Get(h types.Hash) (*types.Tx, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	e, ok := p.byHash[h]
	if !ok {
		return nil, false
	}
	return e.tx, true
}

// PendingNonce is the next nonce for from counting the pool's consecutive
// run above the committed nonce.
func (p *Pool) PendingNonce(from types.Address, committed uint64) uint64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := committed
	if s := p.senders[from]; s != nil {
		for s.get(n) != nil {
			n++
		}
	}
	return n
}

// Select returns up to max executable transactions in block order (§6.4):
// for each sender only the consecutive nonces starting at its committed
// nonce; across senders the highest effective fee first, ties by hash.
// A sender's transactions keep nonce order: only its lowest pending one
// competes at a time. Transactions whose max fee is below the basefees wait.
// Reserved lanes are served first, up to their budgets (laneRank); the
// block's VRF order of the selected set is execution.Build's.
//
// The selection also stops where a block is full: every transaction uses
// at least its intrinsic cost (§17.2, §17.4), so the selected intrinsic
// cycles and cells stay within the block caps (§4.2, §17.8: 20,000,000
// cycles, 1,000,000 cells), i.e. at most 2,000 transfers. A candidate
// beyond them could not be executed in this block anyway, and every node
// would recover its signature for nothing (a judge recovers each
// candidate it does not hold). A transaction that does not fit what is
// left stops its sender (nonce order) while smaller ones still may.
func (p *Pool) Select(st StateView, bf execution.Basefees, max int) []*types.Tx {
	p.mu.Lock()
	defer p.mu.Unlock()
	// The heap starts with each sender's next transaction, in map order:
	// the result does not depend on it, since the heap's order (rank, fee,
	// hash) is total over distinct transactions, and every rank is
	// decided before anything is taken (TestSelectIgnoresMapOrder).
	h := &feeHeap{items: make([]heapItem, 0, len(p.senders))}
	var lanes laneSelect
	for a, s := range p.senders {
		if e := s.get(st.Nonce(a)); e != nil && execution.CheckFees(e.tx, bf) == nil {
			h.items = append(h.items, heapItem{e: e, fee: fees.TxOrderingFee(e.tx, bf), hash: e.hash, rank: lanes.rank(e)})
		}
	}
	h.init()
	out := make([]*types.Tx, 0, min(max, len(p.byHash), maxBlockTxs))
	block := blockBudget{cycles: fees.CapCycles, cells: fees.CapCells}
	for len(h.items) > 0 && len(out) < max && !block.full() {
		// The best item leaves; the same sender's next nonce, if pending,
		// takes its place.
		it := h.items[0]
		if !block.fits(it.e) {
			h.pop()
			continue
		}
		if !lanes.take(&h.items[0]) {
			h.down(0) // its lane's budget is spent: it competes as user
			continue
		}
		out = append(out, it.e.tx)
		block.take(it.e)
		// The sender's next nonce: a sender holds each entry under its
		// own transaction's nonce.
		if e := it.e.s.get(it.e.tx.Nonce + 1); e != nil && execution.CheckFees(e.tx, bf) == nil {
			h.items[0] = heapItem{e: e, fee: fees.TxOrderingFee(e.tx, bf), hash: e.hash, rank: lanes.rank(e)}
			h.down(0)
		} else {
			h.pop()
		}
	}
	return out
}

// minTxCycles is the least intrinsic cost in cycles of any transaction
// (§17.2): below it left in a block, nothing more fits.
const minTxCycles = min(fees.TransferCycles, fees.ActorMessageCycles, fees.DeployCycles)

// maxBlockTxs is the most transactions one block can hold, every one at
// minTxCycles: the most Select can return.
const maxBlockTxs = int(fees.CapCycles / minTxCycles)

// blockBudget is what is left of the block caps after what Select has
// taken. It counts down, so "full" is one comparison with what is left.
type blockBudget struct{ cycles, cells uint64 }

func (b *blockBudget) fits(e *entry) bool {
	return e.cycles <= b.cycles && e.cells <= b.cells
}

func (b *blockBudget) take(e *entry) { b.cycles -= e.cycles; b.cells -= e.cells }

func (b *blockBudget) full() bool { return b.cycles < minTxCycles }

// Remove drops transactions (included in a block, or found invalid).
func (p *Pool) Remove(txs []*types.Tx) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, tx := range txs {
		h := tx.Hash()
		e, ok := p.byHash[h]
		if !ok {
			continue
		}
		delete(p.byHash, h)
		if s := e.s; s.get(tx.Nonce) == e {
			s.del(tx.Nonce)
			if len(s.held) == 0 {
				delete(p.senders, e.from)
			}
		}
	}
}

// Prune drops every transaction whose nonce the committed state has passed
// (after a block), so replaced-by-inclusion transactions do not linger.
func (p *Pool) Prune(st StateView) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for a, s := range p.senders {
		n := st.Nonce(a)
		s.base = n
		if n <= s.first {
			continue // no nonce below n is held
		}
		s.dropBelow(n, p.byHash)
		if len(s.held) == 0 {
			delete(p.senders, a)
		}
	}
}

// IsPoolError reports whether err is a refusal by the pool or the validity
// rules (as opposed to an internal failure).
func IsPoolError(err error) bool {
	var te *execution.TxError
	return errors.As(err, &te)
}

type heapItem struct {
	e    *entry
	fee  fees.Fee128
	hash types.Hash
	rank uint8 // laneRank: 0 served first
}

// feeHeap is a binary heap of the senders' next transactions, best first.
// It is written out rather than driven through container/heap, whose
// interface boxes every item pushed or popped (an allocation each, for
// every transaction of every block).
type feeHeap struct{ items []heapItem }

// before is the selection order: reserved lanes with budget left first,
// then higher effective fee, ties by hash.
func (h *feeHeap) before(i, j int) bool {
	a, b := &h.items[i], &h.items[j]
	if a.rank < b.rank {
		return true
	}
	if a.rank > b.rank {
		return false
	}
	c := a.fee.Cmp(b.fee)
	if c > 0 {
		return true
	}
	if c < 0 {
		return false
	}
	return bytes.Compare(a.hash[:], b.hash[:]) < 0
}

// pop drops the best item.
func (h *feeHeap) pop() {
	last := len(h.items) - 1
	h.items[0] = h.items[last]
	h.items = h.items[:last]
	h.down(0)
}

func (h *feeHeap) init() {
	for i := len(h.items)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

// down moves item i down until neither child goes before it.
func (h *feeHeap) down(i int) {
	n := len(h.items)
	for {
		best := i
		if l := 2*i + 1; l < n && h.before(l, best) {
			best = l
		}
		if r := 2*i + 2; r < n && h.before(r, best) {
			best = r
		}
		if best == i {
			return
		}
		h.items[i], h.items[best] = h.items[best], h.items[i]
		i = best
	}
}
