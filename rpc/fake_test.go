package rpc

import (
	"fmt"
	"log/slog"
	"math/big"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
)

// testChainID is the devnet's 7777 (0x1e61).
const testChainID = 7777

// fakeBackend is an in-memory chain: a genesis block, block 1 with two
// transactions and their receipts, one pending transaction, two funded
// accounts. It validates sent transactions just enough to refuse some.
type fakeBackend struct {
	mu       sync.Mutex
	blocks   []*types.Block
	byHash   map[types.Hash]*types.Block
	nonces   map[types.Address]uint64
	balances map[types.Address]*big.Int
	pool     map[types.Hash]*types.Tx
	receipts map[types.Hash]*types.Receipt
	locs     map[types.Hash]TxLocation
	supply   *big.Int
	// consensus are blocks above the chain that a network node's
	// consensus would hold (proposed or committed); empty like a devnet's.
	consensus []*BlockStatus
	// failWith, when set, makes every state read fail (a broken store).
	failWith error
	// panicIn names a Backend method that panics, to test recovery.
	panicIn string
}

// rejectErr is the node's typed refusal, as execution.TxError is.
type rejectErr struct{ code, msg string }

func (e *rejectErr) Error() string  { return e.msg }
func (e *rejectErr) Reason() string { return e.code }

// fixture is the fake chain plus the names tests need.
type fixture struct {
	b                *fakeBackend
	key              *crypto.PrivateKey
	alice, bob       types.Address
	transfer, failed *types.Tx // in block 1
	pending          *types.Tx // in the pool
}

func testKey(t testing.TB, seed byte) *crypto.PrivateKey {
	t.Helper()
	b := make([]byte, 32)
	b[31] = seed
	k, err := crypto.PrivateKeyFromBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func signedTx(key *crypto.PrivateKey, nonce uint64, to *types.Address, value int64, mutate func(*types.Tx)) *types.Tx {
	tx := &types.Tx{
		ChainID: testChainID, Nonce: nonce, To: to, Value: big.NewInt(value),
		CyclesLimit: 10_000, CellsLimit: 0, MaxFeePerCycle: 3, MaxFeePerCell: 3,
		TipPerCycle: 1, TipPerCell: 1, Payload: []byte{},
	}
	if mutate != nil {
		mutate(tx)
	}
	tx.Sign(key)
	return tx
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	key := testKey(t, 1)
	alice := types.Address(key.Address())
	bob := types.Address(testKey(t, 2).Address())
	f := &fixture{key: key, alice: alice, bob: bob}
	f.transfer = signedTx(key, 0, &bob, 1_000, nil)
	f.failed = signedTx(key, 1, &bob, 5, func(tx *types.Tx) {
		tx.AccessList = []types.AccessTuple{{Address: bob, StorageKeys: []types.Hash{{1}, {2}}}}
		tx.Payload = []byte{0x80}
		tx.CellsLimit = 10
	})
	f.pending = signedTx(key, 2, &bob, 7, nil)

	genesis := &types.Block{Header: &types.Header{Height: 0, Time: 1767225600, BasefeeCycle: 1, BasefeeCell: 1}}
	b1 := &types.Block{
		Header: &types.Header{
			ParentHash: genesis.Header.Hash(), Height: 1, Time: 1767225601, Proposer: bob,
			StateRoot: types.Hash{0xaa}, TxRoot: types.MerkleRoot([]types.Hash{f.transfer.Hash(), f.failed.Hash()}),
			ReceiptsRoot: types.Hash{0xbb}, BasefeeCycle: 1, BasefeeCell: 2, CyclesUsed: 20_000, CellsUsed: 1,
		},
		Txs: []*types.Tx{f.transfer, f.failed},
	}
	supply := new(big.Int).Mul(big.NewInt(3_000_000), new(big.Int).Exp(big.NewInt(10), big.NewInt(18), nil))
	f.b = &fakeBackend{
		blocks: []*types.Block{genesis, b1},
		byHash: map[types.Hash]*types.Block{genesis.Header.Hash(): genesis, b1.Header.Hash(): b1},
		nonces: map[types.Address]uint64{alice: 2},
		balances: map[types.Address]*big.Int{
			alice: new(big.Int).Sub(supply, big.NewInt(1)), // above 2^64: exercises big quantities
			bob:   big.NewInt(1_005),
		},
		pool: map[types.Hash]*types.Tx{f.pending.Hash(): f.pending},
		receipts: map[types.Hash]*types.Receipt{
			f.transfer.Hash(): {TxHash: f.transfer.Hash(), Status: types.ReceiptSuccess, CyclesUsed: 10_000,
				Fee: big.NewInt(20_000), Burned: big.NewInt(10_000), Tip: big.NewInt(10_000),
				Events: []types.Event{{Address: bob, Name: "Paid", Data: []byte{1, 2}}}},
			f.failed.Hash(): {TxHash: f.failed.Hash(), Status: types.ReceiptFailed, CyclesUsed: 10_000, CellsUsed: 1,
				Fee: big.NewInt(20_003), Burned: big.NewInt(10_002), Tip: big.NewInt(10_001),
				ReturnData: []byte{0xde, 0xad}, Error: "out of cells"},
		},
		locs: map[types.Hash]TxLocation{
			f.transfer.Hash(): {BlockHash: b1.Header.Hash(), Height: 1, Index: 0},
			f.failed.Hash():   {BlockHash: b1.Header.Hash(), Height: 1, Index: 1},
		},
		supply: supply,
	}
	return f
}

func (b *fakeBackend) enter(name string) {
	if b.panicIn == name {
		panic("fake backend: " + name)
	}
}

func (b *fakeBackend) ChainID() uint64 { b.enter("ChainID"); return testChainID }

func (b *fakeBackend) LatestHeight() uint64 {
	b.enter("LatestHeight")
	b.mu.Lock()
	defer b.mu.Unlock()
	return uint64(len(b.blocks) - 1)
}

func (b *fakeBackend) BlockByNumber(height uint64) (*types.Block, error) {
	b.enter("BlockByNumber")
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.failWith != nil {
		return nil, b.failWith
	}
	if height >= uint64(len(b.blocks)) {
		return nil, fmt.Errorf("block %d: %w", height, ErrNotFound)
	}
	return b.blocks[height], nil
}

func (b *fakeBackend) BlockByHash(h types.Hash) (*types.Block, error) {
	b.enter("BlockByHash")
	b.mu.Lock()
	defer b.mu.Unlock()
	if blk, ok := b.byHash[h]; ok {
		return blk, nil
	}
	return nil, fmt.Errorf("block %s: %w", h, ErrNotFound)
}

func (b *fakeBackend) Account(addr types.Address) (uint64, *big.Int, error) {
	b.enter("Account")
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.failWith != nil {
		return 0, nil, b.failWith
	}
	bal := b.balances[addr]
	if bal == nil {
		bal = new(big.Int)
	}
	return b.nonces[addr], bal, nil
}

func (b *fakeBackend) PendingNonce(addr types.Address) (uint64, error) {
	b.enter("PendingNonce")
	n, _, err := b.Account(addr)
	if err != nil {
		return 0, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, tx := range b.pool {
		if from, _ := tx.Sender(); from == addr && tx.Nonce >= n {
			n = tx.Nonce + 1
		}
	}
	return n, nil
}

func (b *fakeBackend) SendTransaction(tx *types.Tx) error {
	b.enter("SendTransaction")
	if b.failWith != nil {
		return b.failWith
	}
	if tx.ChainID != testChainID {
		return &rejectErr{"wrong_chain_id", fmt.Sprintf("transaction is for chain id %d, this chain is %d", tx.ChainID, testChainID)}
	}
	from, err := tx.Sender()
	if err != nil {
		return &rejectErr{"invalid_signature", "signature does not recover a sender: " + err.Error()}
	}
	n, _, err := b.Account(from)
	if err != nil {
		return err
	}
	if tx.Nonce < n {
		return &rejectErr{"nonce_too_low", fmt.Sprintf("nonce %d is too low: account %s is at nonce %d", tx.Nonce, from, n)}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.pool[tx.Hash()] = tx
	return nil
}

func (b *fakeBackend) TransactionByHash(h types.Hash) (*types.Tx, *TxLocation, error) {
	b.enter("TransactionByHash")
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.failWith != nil {
		return nil, nil, b.failWith
	}
	if loc, ok := b.locs[h]; ok {
		return b.blocks[loc.Height].Txs[loc.Index], &loc, nil
	}
	if tx, ok := b.pool[h]; ok {
		return tx, nil, nil
	}
	return nil, nil, fmt.Errorf("tx %s: %w", h, ErrNotFound)
}

func (b *fakeBackend) Receipt(h types.Hash) (*types.Receipt, *TxLocation, error) {
	b.enter("Receipt")
	b.mu.Lock()
	defer b.mu.Unlock()
	r, ok := b.receipts[h]
	if !ok {
		return nil, nil, fmt.Errorf("receipt %s: %w", h, ErrNotFound)
	}
	loc := b.locs[h]
	return r, &loc, nil
}

func (b *fakeBackend) Basefees() (uint64, uint64, uint64) {
	b.enter("Basefees")
	return 7, 3, b.LatestHeight() + 1
}

func (b *fakeBackend) EstimateFees(_, to *types.Address, value *big.Int, payload []byte) (FeeEstimate, error) {
	b.enter("EstimateFees")
	if to == nil {
		return FeeEstimate{}, &rejectErr{"actor_creation_unavailable", "actor creation (to = null) is not enabled on this chain yet"}
	}
	e := FeeEstimate{CyclesLimit: 10_000, CellsLimit: uint64(len(payload)), MaxFeePerCycle: 15, MaxFeePerCell: 7, TipPerCycle: 1, TipPerCell: 1}
	e.MaxCost = big.NewInt(int64(e.CyclesLimit*e.MaxFeePerCycle + e.CellsLimit*e.MaxFeePerCell))
	return e, nil
}

func (b *fakeBackend) TotalSupply() (*big.Int, error) {
	b.enter("TotalSupply")
	if b.failWith != nil {
		return nil, b.failWith
	}
	return new(big.Int).Set(b.supply), nil
}

// serve starts an httptest server over the fixture; it closes with the test.
func serve(t testing.TB, b Backend, opts Options) (*httptest.Server, *Client) {
	t.Helper()
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler) // panics and failures here are on purpose
	}
	srv := httptest.NewServer(NewServer(b, opts))
	t.Cleanup(srv.Close)
	return srv, Dial(srv.URL)
}

// The fake serves cowboy_getBlockStatus.
var _ BlockStatusReporter = (*fakeBackend)(nil)

// BlockStatusByHash answers as a devnet does (every block it serves is
// final), plus the consensus blocks of pending, by hash.
func (b *fakeBackend) BlockStatusByHash(h types.Hash) (*BlockStatus, error) {
	b.enter("BlockStatusByHash")
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.failWith != nil {
		return nil, b.failWith
	}
	if blk, ok := b.byHash[h]; ok {
		return &BlockStatus{Hash: h, Height: blk.Header.Height, Status: StatusFinalized}, nil
	}
	for _, st := range b.consensus {
		if st.Hash == h {
			return st, nil
		}
	}
	return nil, fmt.Errorf("block %s: %w", h, ErrNotFound)
}

// BlockStatusByHeight is the final block at height, or the first of
// consensus at that height above the chain.
func (b *fakeBackend) BlockStatusByHeight(height uint64) (*BlockStatus, error) {
	b.enter("BlockStatusByHeight")
	b.mu.Lock()
	defer b.mu.Unlock()
	if height < uint64(len(b.blocks)) {
		h := b.blocks[height].Header.Hash()
		return &BlockStatus{Hash: h, Height: height, Status: StatusFinalized}, nil
	}
	for _, st := range b.consensus {
		if st.Height == height {
			return st, nil
		}
	}
	return nil, fmt.Errorf("block %d: %w", height, ErrNotFound)
}
