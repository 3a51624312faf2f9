package rpc

import (
	"context"
	"errors"
	"math/big"
	"net"
	"reflect"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/types"
)

func TestClientChainAndBlockNumber(t *testing.T) {
	f := newFixture(t)
	_, c := serve(t, f.b, Options{})
	ctx := context.Background()
	id, err := c.ChainID(ctx)
	if err != nil || id != testChainID {
		t.Fatalf("ChainID = %d, %v; want %d", id, err, testChainID)
	}
	n, err := c.BlockNumber(ctx)
	if err != nil || n != 1 {
		t.Fatalf("BlockNumber = %d, %v; want 1", n, err)
	}
}

func TestClientBlocks(t *testing.T) {
	f := newFixture(t)
	_, c := serve(t, f.b, Options{})
	ctx := context.Background()
	b1 := f.b.blocks[1]
	tests := []struct {
		name       string
		get        func() (*BlockJSON, error)
		wantHeight uint64
		wantFull   bool
		wantErr    error
	}{
		{"latest", func() (*BlockJSON, error) { return c.BlockByNumber(ctx, LatestBlock, false) }, 1, false, nil},
		{"earliest", func() (*BlockJSON, error) { return c.BlockByNumber(ctx, EarliestBlock, false) }, 0, false, nil},
		{"by height full", func() (*BlockJSON, error) { return c.BlockByNumber(ctx, BlockAt(1), true) }, 1, true, nil},
		{"future height is null", func() (*BlockJSON, error) { return c.BlockByNumber(ctx, BlockAt(2), false) }, 0, false, ErrNotFound},
		{"by hash", func() (*BlockJSON, error) { return c.BlockByHash(ctx, b1.Header.Hash(), true) }, 1, true, nil},
		{"unknown hash is null", func() (*BlockJSON, error) { return c.BlockByHash(ctx, types.Hash{9}, false) }, 0, false, ErrNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := tt.get()
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("err = %v, want %v", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := f.b.blocks[tt.wantHeight]
			if uint64(b.Height) != tt.wantHeight || types.Hash(b.Hash) != want.Header.Hash() {
				t.Fatalf("got block %d %s, want %d %s", b.Height, b.Hash, tt.wantHeight, want.Header.Hash())
			}
			if len(b.Transactions.Hashes) != len(want.Txs) {
				t.Fatalf("got %d tx hashes, want %d", len(b.Transactions.Hashes), len(want.Txs))
			}
			for i, tx := range want.Txs {
				if types.Hash(b.Transactions.Hashes[i]) != tx.Hash() {
					t.Errorf("tx %d hash %s, want %s", i, b.Transactions.Hashes[i], tx.Hash())
				}
			}
			if (b.Transactions.Full != nil) != (tt.wantFull && len(want.Txs) > 0) {
				t.Fatalf("full objects = %v, want %v", b.Transactions.Full != nil, tt.wantFull)
			}
			for i, tj := range b.Transactions.Full {
				if tj.BlockHash == nil || types.Hash(*tj.BlockHash) != want.Header.Hash() || tj.TxIndex == nil || int(*tj.TxIndex) != i {
					t.Errorf("full tx %d: block fields %v %v", i, tj.BlockHash, tj.TxIndex)
				}
			}
		})
	}
	b, err := c.BlockByNumber(ctx, BlockAt(1), false)
	if err != nil {
		t.Fatal(err)
	}
	h := b1.Header
	if types.Hash(b.ParentHash) != h.ParentHash || types.Address(b.Proposer) != h.Proposer ||
		uint64(b.Time) != h.Time || types.Hash(b.StateRoot) != h.StateRoot || types.Hash(b.TxRoot) != h.TxRoot ||
		types.Hash(b.ReceiptsRoot) != h.ReceiptsRoot || uint64(b.BasefeeCycle) != h.BasefeeCycle ||
		uint64(b.BasefeeCell) != h.BasefeeCell || uint64(b.CyclesUsed) != h.CyclesUsed || uint64(b.CellsUsed) != h.CellsUsed {
		t.Fatalf("header fields differ: %+v vs %+v", b, h)
	}
}

func TestClientAccounts(t *testing.T) {
	f := newFixture(t)
	_, c := serve(t, f.b, Options{})
	ctx := context.Background()
	bal, err := c.Balance(ctx, f.alice)
	if err != nil || bal.Cmp(f.b.balances[f.alice]) != 0 {
		t.Fatalf("Balance(alice) = %v, %v; want %v", bal, err, f.b.balances[f.alice])
	}
	bal, err = c.Balance(ctx, types.Address{0x42})
	if err != nil || bal.Sign() != 0 {
		t.Fatalf("Balance(unknown) = %v, %v; want 0", bal, err)
	}
	n, err := c.Nonce(ctx, f.alice, false)
	if err != nil || n != 2 {
		t.Fatalf("Nonce(latest) = %d, %v; want 2", n, err)
	}
	n, err = c.Nonce(ctx, f.alice, true)
	if err != nil || n != 3 {
		t.Fatalf("Nonce(pending) = %d, %v; want 3 (one queued)", n, err)
	}
	s, err := c.TotalSupply(ctx)
	if err != nil || s.Cmp(f.b.supply) != 0 {
		t.Fatalf("TotalSupply = %v, %v; want %v", s, err, f.b.supply)
	}
}

func TestClientSendRawTransaction(t *testing.T) {
	f := newFixture(t)
	_, c := serve(t, f.b, Options{})
	ctx := context.Background()

	ok := signedTx(f.key, 3, &f.bob, 1, nil)
	h, err := c.SendRawTransaction(ctx, ok)
	if err != nil || h != ok.Hash() {
		t.Fatalf("send = %s, %v; want %s", h, err, ok.Hash())
	}
	got, err := c.TransactionByHash(ctx, h)
	if err != nil {
		t.Fatal(err)
	}
	if got.BlockHash != nil || got.BlockNumber != nil || got.TxIndex != nil {
		t.Fatalf("pending tx has block fields: %+v", got)
	}

	tests := []struct {
		name   string
		tx     *types.Tx
		reason string
		msg    string
	}{
		{"nonce too low", signedTx(f.key, 0, &f.bob, 1, nil), "nonce_too_low", "nonce 0 is too low: account " + f.alice.Hex() + " is at nonce 2"},
		{"wrong chain", signedTx(f.key, 4, &f.bob, 1, func(tx *types.Tx) { tx.ChainID = 1 }), "wrong_chain_id", "transaction is for chain id 1, this chain is 7777"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.SendRawTransaction(ctx, tt.tx)
			var re *Error
			if !errors.As(err, &re) {
				t.Fatalf("err = %v, want *Error", err)
			}
			if re.Code != CodeTxRejected || re.RejectReason() != tt.reason || re.Message != tt.msg {
				t.Fatalf("got %d %q %q, want %d %q %q", re.Code, re.RejectReason(), re.Message, CodeTxRejected, tt.reason, tt.msg)
			}
		})
	}
}

func TestClientTransactionsAndReceipts(t *testing.T) {
	f := newFixture(t)
	_, c := serve(t, f.b, Options{})
	ctx := context.Background()

	for i, tx := range []*types.Tx{f.transfer, f.failed} {
		got, err := c.TransactionByHash(ctx, tx.Hash())
		if err != nil {
			t.Fatal(err)
		}
		back, err := got.Tx()
		if err != nil {
			t.Fatalf("tx %d: rebuild: %v", i, err)
		}
		if string(back.Encode()) != string(tx.Encode()) {
			t.Fatalf("tx %d: JSON round trip changed the transaction", i)
		}
		if types.Address(got.From) != f.alice || got.BlockNumber == nil || *got.BlockNumber != 1 || *got.TxIndex != Quantity(i) {
			t.Fatalf("tx %d: from %s block %v index %v", i, got.From, got.BlockNumber, got.TxIndex)
		}
	}
	if _, err := c.TransactionByHash(ctx, types.Hash{7}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown tx: err = %v, want ErrNotFound", err)
	}

	r, err := c.Receipt(ctx, f.transfer.Hash())
	if err != nil {
		t.Fatal(err)
	}
	want := &ReceiptJSON{
		TransactionHash: Hash(f.transfer.Hash()), BlockHash: Hash(f.b.blocks[1].Header.Hash()), BlockNumber: 1,
		TxIndex: 0, From: Address(f.alice), To: (*Address)(&f.bob), Status: 1, CyclesUsed: 10_000, CellsUsed: 0,
		Fee: NewBigQuantity(big.NewInt(20_000)), Burned: NewBigQuantity(big.NewInt(10_000)), Tip: NewBigQuantity(big.NewInt(10_000)),
		ReturnData: Bytes{}, Events: []EventJSON{{Address: Address(f.bob), Name: "Paid", Data: Bytes{1, 2}}},
	}
	if !reflect.DeepEqual(r, want) {
		t.Fatalf("receipt\n got %+v\nwant %+v", r, want)
	}
	if !r.Succeeded() {
		t.Fatal("Succeeded() = false for status 0x1")
	}
	r, err = c.Receipt(ctx, f.failed.Hash())
	if err != nil {
		t.Fatal(err)
	}
	if r.Succeeded() || r.Error != "out of cells" || r.TxIndex != 1 || r.ReturnData.String() != "0xdead" || len(r.Events) != 0 {
		t.Fatalf("failed receipt: %+v", r)
	}
	if _, err := c.Receipt(ctx, f.pending.Hash()); !errors.Is(err, ErrNotFound) {
		t.Fatalf("pending receipt: err = %v, want ErrNotFound", err)
	}
}

func TestClientFees(t *testing.T) {
	f := newFixture(t)
	_, c := serve(t, f.b, Options{})
	ctx := context.Background()
	bf, err := c.Basefees(ctx)
	if err != nil || *bf != (BasefeesJSON{Cycle: 7, Cell: 3, Height: 2}) {
		t.Fatalf("Basefees = %+v, %v", bf, err)
	}
	to := Address(f.bob)
	e, err := c.EstimateFees(ctx, EstimateFeesArgs{To: &to, Value: NewBigQuantity(big.NewInt(5)), Payload: Bytes{1, 2, 3}})
	if err != nil {
		t.Fatal(err)
	}
	if e.CyclesLimit != 10_000 || e.CellsLimit != 3 || e.MaxFeePerCycle != 15 || e.MaxFeePerCell != 7 ||
		e.TipPerCycle != 1 || e.TipPerCell != 1 || e.MaxCost.Int().Int64() != 150_021 {
		t.Fatalf("estimate = %+v", e)
	}
	_, err = c.EstimateFees(ctx, EstimateFeesArgs{})
	var re *Error
	if !errors.As(err, &re) || re.RejectReason() != "actor_creation_unavailable" {
		t.Fatalf("estimate for actor creation: err = %v", err)
	}
}

func TestClientWaitReceipt(t *testing.T) {
	f := newFixture(t)
	_, c := serve(t, f.b, Options{})
	r, err := c.WaitReceipt(context.Background(), f.failed.Hash(), 1)
	if err != nil || types.Hash(r.TransactionHash) != f.failed.Hash() {
		t.Fatalf("WaitReceipt = %v, %v", r, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.WaitReceipt(ctx, types.Hash{5}, 1); !errors.Is(err, context.Canceled) {
		t.Fatalf("WaitReceipt on a cancelled context: err = %v", err)
	}
}

func TestClientUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + l.Addr().String()
	l.Close() // nothing listens there now
	_, err = Dial(url).BlockNumber(context.Background())
	if !errors.Is(err, ErrUnreachable) {
		t.Fatalf("err = %v, want ErrUnreachable", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "cannot reach the node at "+url) || !strings.Contains(msg, "cowboyd devnet") {
		t.Fatalf("message %q does not say how to fix it", msg)
	}
}

func TestDialBareHostPort(t *testing.T) {
	f := newFixture(t)
	srv, _ := serve(t, f.b, Options{})
	c := Dial(strings.TrimPrefix(srv.URL, "http://"))
	if c.URL() != srv.URL {
		t.Fatalf("URL() = %q, want %q", c.URL(), srv.URL)
	}
	if id, err := c.ChainID(context.Background()); err != nil || id != testChainID {
		t.Fatalf("ChainID over a bare host:port = %d, %v", id, err)
	}
}

func TestClientServerErrorIsTyped(t *testing.T) {
	f := newFixture(t)
	_, c := serve(t, f.b, Options{})
	err := c.Call(context.Background(), nil, "cowboy_noSuchMethod")
	var re *Error
	if !errors.As(err, &re) || re.Code != CodeMethodNotFound || !strings.Contains(re.Message, "cowboy_noSuchMethod") {
		t.Fatalf("err = %v", err)
	}
	if re.RejectReason() != "" {
		t.Fatalf("RejectReason of a non-rejection = %q", re.RejectReason())
	}
}
