package main

import (
	"fmt"
	"math/big"
	"sync"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/genesis"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/rpc"
)

// fakeChain is an rpc.Backend that keeps a whole chain in memory: the ten
// devnet accounts funded at genesis, and every accepted transfer mined at
// once into its own block (unless hold is set), with the fee rules of
// §2.3: fee = used × (basefee + effective tip), basefee part burned.
type fakeChain struct {
	mu       sync.Mutex
	chainID  uint64
	hold     bool // keep accepted transactions pending forever
	blocks   []*types.Block
	byHash   map[types.Hash]*types.Block
	balances map[types.Address]*big.Int
	nonces   map[types.Address]uint64
	pool     map[types.Hash]*types.Tx
	receipts map[types.Hash]*types.Receipt
	locs     map[types.Hash]rpc.TxLocation
	sent     []*types.Tx // every transaction accepted, in order
	// consensus holds blocks above the chain, as a network node's
	// consensus does (cowboy_getBlockStatus), by consensus hash.
	consensus map[types.Hash]*rpc.BlockStatus
}

// The fake serves cowboy_getBlockStatus.
var _ rpc.BlockStatusReporter = (*fakeChain)(nil)

// BlockStatusByHash: chain blocks are final; others come from consensus.
func (c *fakeChain) BlockStatusByHash(h types.Hash) (*rpc.BlockStatus, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if b, ok := c.byHash[h]; ok {
		return &rpc.BlockStatus{Hash: h, Height: b.Header.Height, Status: rpc.StatusFinalized}, nil
	}
	if st, ok := c.consensus[h]; ok {
		return st, nil
	}
	return nil, fmt.Errorf("block %s: %w", h, rpc.ErrNotFound)
}

// BlockStatusByHeight answers for chain blocks only.
func (c *fakeChain) BlockStatusByHeight(height uint64) (*rpc.BlockStatus, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if height < uint64(len(c.blocks)) {
		return &rpc.BlockStatus{Hash: c.blocks[height].Header.Hash(), Height: height, Status: rpc.StatusFinalized}, nil
	}
	return nil, fmt.Errorf("block %d: %w", height, rpc.ErrNotFound)
}

// Fake basefees: different per meter so a test can tell them apart.
const (
	fakeBasefeeCycle = 7
	fakeBasefeeCell  = 3
	transferCycles   = 10_000 // intrinsic cost of a transfer (§17.2)
)

type rejectErr struct{ reason, msg string }

func (e *rejectErr) Error() string  { return e.msg }
func (e *rejectErr) Reason() string { return e.reason }

func newFakeChain(t *testing.T, chainID uint64) *fakeChain {
	t.Helper()
	gen := &types.Block{Header: &types.Header{Height: 0, Time: 1767225600, BasefeeCycle: 1, BasefeeCell: 1}}
	c := &fakeChain{
		chainID: chainID, blocks: []*types.Block{gen},
		byHash:   map[types.Hash]*types.Block{gen.Header.Hash(): gen},
		balances: map[types.Address]*big.Int{}, nonces: map[types.Address]uint64{},
		pool: map[types.Hash]*types.Tx{}, receipts: map[types.Hash]*types.Receipt{},
		locs: map[types.Hash]rpc.TxLocation{},
	}
	for i := range genesis.DevAccounts {
		a, err := genesis.DevAddress(i)
		if err != nil {
			t.Fatal(err)
		}
		c.balances[a] = new(big.Int).Set(genesis.DevBalance)
	}
	return c
}

func (c *fakeChain) ChainID() uint64 { return c.chainID }

func (c *fakeChain) LatestHeight() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return uint64(len(c.blocks) - 1)
}

func (c *fakeChain) BlockByNumber(h uint64) (*types.Block, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if h >= uint64(len(c.blocks)) {
		return nil, fmt.Errorf("block %d: %w", h, rpc.ErrNotFound)
	}
	return c.blocks[h], nil
}

func (c *fakeChain) BlockByHash(h types.Hash) (*types.Block, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if b, ok := c.byHash[h]; ok {
		return b, nil
	}
	return nil, fmt.Errorf("block %s: %w", h, rpc.ErrNotFound)
}

func (c *fakeChain) balance(a types.Address) *big.Int {
	if b := c.balances[a]; b != nil {
		return b
	}
	return new(big.Int)
}

func (c *fakeChain) Account(a types.Address) (uint64, *big.Int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.nonces[a], new(big.Int).Set(c.balance(a)), nil
}

func (c *fakeChain) PendingNonce(a types.Address) (uint64, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := c.nonces[a]
	for _, tx := range c.pool {
		if from, _ := tx.Sender(); from == a && tx.Nonce >= n {
			n = tx.Nonce + 1
		}
	}
	return n, nil
}

func (c *fakeChain) SendTransaction(tx *types.Tx) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if tx.ChainID != c.chainID {
		return &rejectErr{"wrong_chain_id", fmt.Sprintf("transaction is for chain id %d, this chain is %d", tx.ChainID, c.chainID)}
	}
	from, err := tx.Sender()
	if err != nil {
		return &rejectErr{"invalid_signature", "signature does not recover: " + err.Error()}
	}
	want := c.nonces[from]
	for _, p := range c.pool {
		if s, _ := p.Sender(); s == from && p.Nonce >= want {
			want = p.Nonce + 1
		}
	}
	if tx.Nonce < want {
		return &rejectErr{"nonce_too_low", fmt.Sprintf("nonce %d is too low: %s is at nonce %d", tx.Nonce, from, want)}
	}
	if tx.Nonce > want {
		return &rejectErr{"nonce_gap", fmt.Sprintf("nonce %d leaves a gap: %s is at nonce %d", tx.Nonce, from, want)}
	}
	if tx.MaxFeePerCycle < fakeBasefeeCycle || tx.MaxFeePerCell < fakeBasefeeCell {
		return &rejectErr{"fee_too_low", "max fee is below the basefee"}
	}
	cost := new(big.Int).SetUint64(tx.CyclesLimit)
	cost.Mul(cost, new(big.Int).SetUint64(tx.MaxFeePerCycle))
	cost.Add(cost, new(big.Int).Mul(new(big.Int).SetUint64(tx.CellsLimit), new(big.Int).SetUint64(tx.MaxFeePerCell)))
	cost.Add(cost, tx.ValueOrZero())
	if cost.Cmp(c.balance(from)) > 0 {
		return &rejectErr{"insufficient_funds", fmt.Sprintf("insufficient funds: %s has %s base units, the transaction may cost %s", from, c.balance(from), cost)}
	}
	c.sent = append(c.sent, tx)
	if c.hold {
		c.pool[tx.Hash()] = tx
		return nil
	}
	c.mine(from, tx)
	return nil
}

// mine executes tx in a block of its own. A cycles limit below the
// intrinsic cost makes a failed receipt that still charges the limit.
func (c *fakeChain) mine(from types.Address, tx *types.Tx) {
	r := &types.Receipt{TxHash: tx.Hash(), Status: types.ReceiptSuccess, CyclesUsed: transferCycles, CellsUsed: uint64(len(tx.Payload))}
	if tx.CyclesLimit < transferCycles {
		r.Status, r.CyclesUsed, r.Error = types.ReceiptFailed, tx.CyclesLimit, "out of cycles"
	}
	tipCycle := min(tx.TipPerCycle, tx.MaxFeePerCycle-fakeBasefeeCycle)
	tipCell := min(tx.TipPerCell, tx.MaxFeePerCell-fakeBasefeeCell)
	r.Burned = new(big.Int).SetUint64(r.CyclesUsed*fakeBasefeeCycle + r.CellsUsed*fakeBasefeeCell)
	r.Tip = new(big.Int).SetUint64(r.CyclesUsed*tipCycle + r.CellsUsed*tipCell)
	r.Fee = new(big.Int).Add(r.Burned, r.Tip)
	bal := c.balance(from)
	bal.Sub(bal, r.Fee)
	if r.Status == types.ReceiptSuccess {
		bal.Sub(bal, tx.ValueOrZero())
		c.balances[*tx.To] = new(big.Int).Add(c.balance(*tx.To), tx.ValueOrZero())
	}
	c.balances[from] = bal
	c.nonces[from]++

	parent := c.blocks[len(c.blocks)-1].Header
	b := &types.Block{
		Header: &types.Header{
			ParentHash: parent.Hash(), Height: parent.Height + 1, Time: parent.Time + 1,
			TxRoot: types.MerkleRoot([]types.Hash{tx.Hash()}), BasefeeCycle: fakeBasefeeCycle, BasefeeCell: fakeBasefeeCell,
			CyclesUsed: r.CyclesUsed, CellsUsed: r.CellsUsed,
		},
		Txs: []*types.Tx{tx},
	}
	c.blocks = append(c.blocks, b)
	c.byHash[b.Header.Hash()] = b
	c.receipts[tx.Hash()] = r
	c.locs[tx.Hash()] = rpc.TxLocation{BlockHash: b.Header.Hash(), Height: b.Header.Height, Index: 0}
}

func (c *fakeChain) TransactionByHash(h types.Hash) (*types.Tx, *rpc.TxLocation, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if loc, ok := c.locs[h]; ok {
		return c.blocks[loc.Height].Txs[loc.Index], &loc, nil
	}
	if tx, ok := c.pool[h]; ok {
		return tx, nil, nil
	}
	return nil, nil, fmt.Errorf("tx %s: %w", h, rpc.ErrNotFound)
}

func (c *fakeChain) Receipt(h types.Hash) (*types.Receipt, *rpc.TxLocation, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r, ok := c.receipts[h]
	if !ok {
		return nil, nil, fmt.Errorf("receipt %s: %w", h, rpc.ErrNotFound)
	}
	loc := c.locs[h]
	return r, &loc, nil
}

func (c *fakeChain) Basefees() (uint64, uint64, uint64) {
	return fakeBasefeeCycle, fakeBasefeeCell, c.LatestHeight() + 1
}

func (c *fakeChain) EstimateFees(_, to *types.Address, _ *big.Int, payload []byte) (rpc.FeeEstimate, error) {
	if to == nil {
		return rpc.FeeEstimate{}, &rejectErr{"actor_creation", "actor creation is not supported"}
	}
	e := rpc.FeeEstimate{
		CyclesLimit: transferCycles, CellsLimit: uint64(len(payload)),
		MaxFeePerCycle: 2*fakeBasefeeCycle + 1, MaxFeePerCell: 2*fakeBasefeeCell + 1, TipPerCycle: 1, TipPerCell: 1,
	}
	e.MaxCost = new(big.Int).SetUint64(e.CyclesLimit*e.MaxFeePerCycle + e.CellsLimit*e.MaxFeePerCell)
	return e, nil
}

func (c *fakeChain) TotalSupply() (*big.Int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := new(big.Int)
	for _, b := range c.balances {
		s.Add(s, b)
	}
	return s, nil
}
