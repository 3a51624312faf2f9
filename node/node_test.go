package node

import (
	"errors"
	"io"
	"log/slog"
	"math/big"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/chain/execution"
	"github.com/cowboy-chain/cowboy/chain/genesis"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/rpc"
)

func quietLog() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func openTest(t testing.TB, home string) *Node {
	t.Helper()
	clock := time.Unix(genesis.DevnetGenesisTime+100, 0)
	n, err := Open(Config{Home: home, Genesis: genesis.Devnet(), Logger: quietLog(),
		Now: func() time.Time { clock = clock.Add(time.Second); return clock }})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func devKey(t testing.TB, i int) *crypto.PrivateKey {
	k, err := genesis.DevKey(i)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// signedTransfer builds a transfer the way the CLI does: fees from
// EstimateFees, nonce from PendingNonce.
func signedTransfer(t testing.TB, n *Node, from *crypto.PrivateKey, to types.Address, value *big.Int) *types.Tx {
	t.Helper()
	est, err := n.EstimateFees(nil, &to, value, nil)
	if err != nil {
		t.Fatal(err)
	}
	nonce, err := n.PendingNonce(types.Address(from.Address()))
	if err != nil {
		t.Fatal(err)
	}
	tx := &types.Tx{ChainID: n.ChainID(), Nonce: nonce, To: &to, Value: value,
		CyclesLimit: est.CyclesLimit, CellsLimit: est.CellsLimit,
		MaxFeePerCycle: est.MaxFeePerCycle, MaxFeePerCell: est.MaxFeePerCell,
		TipPerCycle: est.TipPerCycle, TipPerCell: est.TipPerCell, Payload: []byte{}}
	tx.Sign(from)
	return tx
}

func TestGenesisBalances(t *testing.T) {
	n := openTest(t, t.TempDir())
	defer n.Close()
	for i := 0; i < genesis.DevAccounts; i++ {
		a, _ := genesis.DevAddress(i)
		_, bal, err := n.Account(a)
		if err != nil || bal.Cmp(genesis.DevBalance) != 0 {
			t.Fatalf("dev%d balance %v err %v", i, bal, err)
		}
	}
	supply, _ := n.TotalSupply()
	want := new(big.Int).Mul(genesis.DevBalance, big.NewInt(genesis.DevAccounts))
	if supply.Cmp(want) != 0 {
		t.Fatalf("supply %s want %s", supply, want)
	}
	if n.Head().Height != 0 || n.Head().StateRoot == (types.Hash{}) {
		t.Fatalf("genesis head %+v", n.Head())
	}
}

func TestTransferEndToEnd(t *testing.T) {
	n := openTest(t, t.TempDir())
	defer n.Close()
	dev0, _ := genesis.DevAddress(0)
	to := types.Address{0x42}
	supply0, _ := n.TotalSupply()
	value := big.NewInt(1_500_000_000_000_000_000) // 1.5 CBY
	tx := signedTransfer(t, n, devKey(t, 0), to, value)
	if err := n.SendTransaction(tx); err != nil {
		t.Fatal(err)
	}
	if got, loc, err := n.TransactionByHash(tx.Hash()); err != nil || loc != nil || got.Hash() != tx.Hash() {
		t.Fatalf("pending lookup: %v %v", loc, err)
	}
	b, err := n.ProduceBlock()
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Txs) != 1 || b.Header.Height != 1 {
		t.Fatalf("block %d with %d txs", b.Header.Height, len(b.Txs))
	}
	rc, loc, err := n.Receipt(tx.Hash())
	if err != nil {
		t.Fatal(err)
	}
	if rc.Status != types.ReceiptSuccess || loc.Height != 1 || loc.BlockHash != b.Header.Hash() {
		t.Fatalf("receipt %+v at %+v", rc, loc)
	}
	// Genesis basefees are 1/cycle; the tip is 1/cycle: 10,000 cycles.
	if rc.CyclesUsed != 10_000 || rc.Burned.Int64() != 10_000 || rc.Tip.Int64() != 10_000 || rc.Fee.Int64() != 20_000 {
		t.Fatalf("fees: %+v", rc)
	}
	_, bal, _ := n.Account(to)
	if bal.Cmp(value) != 0 {
		t.Fatalf("recipient has %s", bal)
	}
	_, bal0, _ := n.Account(dev0)
	spent := new(big.Int).Sub(genesis.DevBalance, bal0)
	if want := new(big.Int).Add(value, rc.Fee); spent.Cmp(want) != 0 {
		t.Fatalf("dev0 spent %s want %s", spent, want)
	}
	_, tips, _ := n.Account(n.Proposer())
	if tips.Cmp(rc.Tip) != 0 {
		t.Fatalf("proposer got %s want %s", tips, rc.Tip)
	}
	supply1, _ := n.TotalSupply()
	if burned := new(big.Int).Sub(supply0, supply1); burned.Cmp(rc.Burned) != 0 {
		t.Fatalf("supply fell by %s, burned %s", burned, rc.Burned)
	}
	// Replaying the same transaction is refused: nothing is charged.
	if err := n.SendTransaction(tx); !errors.Is(err, execution.ErrNonceTooLow) {
		t.Fatalf("replay: %v", err)
	}
}

func TestRestartContinuesChain(t *testing.T) {
	home := t.TempDir()
	n := openTest(t, home)
	to := types.Address{0x43}
	var hashes []types.Hash
	for i := 0; i < 3; i++ {
		tx := signedTransfer(t, n, devKey(t, 1), to, big.NewInt(int64(1000+i)))
		if err := n.SendTransaction(tx); err != nil {
			t.Fatal(err)
		}
		hashes = append(hashes, tx.Hash())
		if _, err := n.ProduceBlock(); err != nil {
			t.Fatal(err)
		}
	}
	head := n.Head()
	if err := n.Close(); err != nil {
		t.Fatal(err)
	}
	n = openTest(t, home)
	defer n.Close()
	if got := n.Head(); got.Hash() != head.Hash() {
		t.Fatalf("reopened at %d %s, want %d %s", got.Height, got.Hash(), head.Height, head.Hash())
	}
	for _, h := range hashes {
		if _, _, err := n.Receipt(h); err != nil {
			t.Fatalf("receipt %s lost: %v", h, err)
		}
	}
	b, err := n.ProduceBlock()
	if err != nil {
		t.Fatal(err)
	}
	if b.Header.Height != head.Height+1 || b.Header.ParentHash != head.Hash() {
		t.Fatal("chain did not continue from the stored head")
	}
}

func TestHomeInUse(t *testing.T) {
	home := t.TempDir()
	n := openTest(t, home)
	defer n.Close()
	_, err := Open(Config{Home: home, Genesis: genesis.Devnet(), Logger: quietLog()})
	if !errors.Is(err, ErrHomeInUse) {
		t.Fatalf("second open: %v", err)
	}
	// The first node is unharmed.
	if _, err := n.ProduceBlock(); err != nil {
		t.Fatal(err)
	}
}

func TestWrongChainIDInHome(t *testing.T) {
	home := t.TempDir()
	n := openTest(t, home)
	n.Close()
	g := genesis.Devnet()
	g.ChainID = 9
	if _, err := Open(Config{Home: home, Genesis: g, Logger: quietLog()}); err == nil {
		t.Fatal("opened a home of another chain")
	}
}

// Basefees follow §4.2 block by block: empty blocks keep the floor.
func TestBasefeesAfterEmptyBlocks(t *testing.T) {
	n := openTest(t, t.TempDir())
	defer n.Close()
	for i := 0; i < 3; i++ {
		if _, err := n.ProduceBlock(); err != nil {
			t.Fatal(err)
		}
	}
	c, b, next := n.Basefees()
	if c != 1 || b != 1 || next != 4 {
		t.Fatalf("basefees %d %d next %d", c, b, next)
	}
}

// Proofs from a running node verify against the header it returns, for the
// latest and an earlier height, present and absent accounts.
func TestProofsFromNode(t *testing.T) {
	n := openTest(t, t.TempDir())
	defer n.Close()
	to := types.Address{0x55}
	tx := signedTransfer(t, n, devKey(t, 3), to, big.NewInt(77))
	n.SendTransaction(tx)
	n.ProduceBlock()
	tx = signedTransfer(t, n, devKey(t, 3), to, big.NewInt(1))
	n.SendTransaction(tx)
	n.ProduceBlock()
	for _, tt := range []struct {
		height  uint64
		who     types.Address
		present bool
		balance int64
	}{
		{2, to, true, 78},
		{1, to, true, 77},
		{0, to, false, 0},
		{2, types.Address{0x56}, false, 0},
	} {
		sp, err := n.Proof(tt.who, nil, tt.height)
		if err != nil {
			t.Fatal(err)
		}
		pj, err := rpc.NewProofJSON(tt.who, nil, sp)
		if err != nil {
			t.Fatal(err)
		}
		if err := pj.Verify(); err != nil {
			t.Fatalf("height %d %s: %v", tt.height, tt.who, err)
		}
		if (pj.Value != nil) != tt.present || (tt.present && pj.Account.Balance.Int().Int64() != tt.balance) {
			t.Fatalf("height %d %s: value %v account %+v", tt.height, tt.who, pj.Value, pj.Account)
		}
		blk, _ := n.BlockByNumber(tt.height)
		if types.Hash(pj.BlockHash) != blk.Header.Hash() {
			t.Fatal("proof is not about the chain's block")
		}
	}
}

// Config.RetainHeights bounds the provable heights: with 2, after height
// 3 heights 2 and 3 prove and height 1 is refused as not found; a
// negative value is refused at open.
func TestRetainHeights(t *testing.T) {
	home := t.TempDir()
	clock := time.Unix(genesis.DevnetGenesisTime+100, 0)
	cfg := Config{Home: home, Genesis: genesis.Devnet(), Logger: quietLog(), RetainHeights: -1,
		Now: func() time.Time { clock = clock.Add(time.Second); return clock }}
	if _, err := Open(cfg); err == nil {
		t.Fatal("a negative RetainHeights opened")
	}
	cfg.RetainHeights = 2
	n, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	for i := 0; i < 3; i++ {
		if _, err := n.ProduceBlock(); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct {
		height uint64
		ok     bool
	}{{3, true}, {2, true}, {1, false}, {0, false}} {
		_, err := n.Proof(types.Address{0x55}, nil, tt.height)
		if tt.ok != (err == nil) || (!tt.ok && !errors.Is(err, rpc.ErrNotFound)) {
			t.Fatalf("proof at height %d: %v", tt.height, err)
		}
	}
}

// The hand-written tx index entry is what the reflection codec writes, at
// every width of CBOR integer.
func TestTxLocationEncoding(t *testing.T) {
	for _, tt := range []struct{ height, index uint64 }{
		{0, 0}, {23, 24}, {255, 256}, {65535, 65536}, {1 << 32, 1<<32 - 1}, {^uint64(0), 1999},
	} {
		ref, err := types.Marshal([]uint64{tt.height, tt.index})
		if err != nil {
			t.Fatal(err)
		}
		if got := encodeTxLocation(tt.height, tt.index); string(got) != string(ref) {
			t.Errorf("(%d, %d): %x, reflection gives %x", tt.height, tt.index, got, ref)
		}
	}
}
