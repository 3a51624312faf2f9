package execution

import (
	"errors"
	"math/big"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
)

const chainID = 7777

type memReader map[state.Key][]byte

func (m memReader) GetState(k state.Key) ([]byte, error) { return m[k], nil }

func (m memReader) commit(t *testing.T, st *state.StateDB) {
	ws, err := st.Writes()
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range ws {
		if w.Value == nil {
			delete(m, w.Key)
		} else {
			m[w.Key] = w.Value
		}
	}
}

var (
	aliceKey, _ = crypto.PrivateKeyFromBytes(append(make([]byte, 31), 1))
	alice       = types.Address(aliceKey.Address())
	bob         = types.Address{0xb0}
	proposer    = types.Address{0xee}
)

func cby(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), big.NewInt(1e18)) }

// setup funds alice with 10 CBY.
func setup(t *testing.T) memReader {
	r := memReader{}
	st := state.New(r)
	st.Mint(alice, cby(10))
	r.commit(t, st)
	return r
}

func transferTx(mod func(*types.Tx)) *types.Tx {
	tx := &types.Tx{ChainID: chainID, Nonce: 0, To: &bob, Value: big.NewInt(1000),
		CyclesLimit: 10_000, CellsLimit: 0, MaxFeePerCycle: 10, MaxFeePerCell: 10, TipPerCycle: 2, Payload: []byte{}}
	if mod != nil {
		mod(tx)
	}
	tx.Sign(aliceKey)
	return tx
}

func ctx() *BlockContext {
	return &BlockContext{ChainID: chainID, Height: 1, Proposer: proposer, Basefees: Basefees{Cycle: 5, Cell: 3}}
}

func TestTransferFees(t *testing.T) {
	r := setup(t)
	st := state.New(r)
	tx := transferTx(func(tx *types.Tx) {
		tx.Payload = []byte{0x63, 'h', 'i', '!'} // a CBOR text string: 4 bytes of calldata
		tx.CellsLimit = 100
	})
	rc, err := ApplyTx(st, ctx(), tx)
	if err != nil {
		t.Fatal(err)
	}
	// cycles: 10,000 × (5 + min(2, 10−5)) = 70,000; cells: 4 × (3 + min(0, 7)) = 12.
	wantFee, wantBurn, wantTip := int64(70_012), int64(50_012), int64(20_000)
	if rc.Status != types.ReceiptSuccess || rc.CyclesUsed != 10_000 || rc.CellsUsed != 4 {
		t.Fatalf("receipt %+v", rc)
	}
	if rc.Fee.Int64() != wantFee || rc.Burned.Int64() != wantBurn || rc.Tip.Int64() != wantTip {
		t.Fatalf("fee %s burned %s tip %s", rc.Fee, rc.Burned, rc.Tip)
	}
	spent := new(big.Int).Sub(cby(10), st.Balance(alice))
	if spent.Int64() != 1000+wantFee {
		t.Fatalf("alice spent %s, want value + fee = %d (unused limits refunded)", spent, 1000+wantFee)
	}
	if st.Balance(bob).Int64() != 1000 || st.Balance(proposer).Int64() != wantTip {
		t.Fatalf("bob %s proposer %s", st.Balance(bob), st.Balance(proposer))
	}
	if burned := new(big.Int).Sub(cby(10), st.Supply()); burned.Int64() != wantBurn {
		t.Fatalf("supply fell by %s, want the basefee part %d", burned, wantBurn)
	}
	if st.Nonce(alice) != 1 {
		t.Fatal("nonce not bumped")
	}
}

// One row per validity rule of §2.2 and the project's decisions; a refused
// transaction changes nothing and charges nothing.
func TestInvalidTransactions(t *testing.T) {
	tests := []struct {
		name string
		tx   *types.Tx
		want *TxError
	}{
		{"cycles limit above maximum", transferTx(func(tx *types.Tx) { tx.CyclesLimit = 20_000_001 }), ErrCyclesLimitTooHigh},
		{"cells limit above maximum", transferTx(func(tx *types.Tx) { tx.CellsLimit = 1_000_001 }), ErrCellsLimitTooHigh},
		{"too large", transferTx(func(tx *types.Tx) {
			tx.Payload = append([]byte{0x5a, 0, 2, 0, 0}, make([]byte, 128*1024)...)
			tx.CellsLimit = 1_000_000
		}), ErrTxTooLarge},
		{"cycles below intrinsic", transferTx(func(tx *types.Tx) { tx.CyclesLimit = 9_999 }), ErrIntrinsicCycles},
		{"cells below calldata", transferTx(func(tx *types.Tx) { tx.Payload = []byte{0x01} }), ErrIntrinsicCells},
		{"wrong chain id", transferTx(func(tx *types.Tx) { tx.ChainID = 1 }), ErrWrongChainID},
		{"nonce too high", transferTx(func(tx *types.Tx) { tx.Nonce = 1 }), ErrNonceTooHigh},
		{"cannot pay value", transferTx(func(tx *types.Tx) { tx.Value = cby(10) }), ErrInsufficientFunds},
		{"cannot pay limits × max fees", transferTx(func(tx *types.Tx) { tx.MaxFeePerCycle = 1e15; tx.TipPerCycle = 0 }), ErrInsufficientFunds},
		{"max fee per cycle below basefee", transferTx(func(tx *types.Tx) { tx.MaxFeePerCycle = 4; tx.TipPerCycle = 0 }), ErrFeeBelowBasefee},
		{"max fee per cell below basefee", transferTx(func(tx *types.Tx) { tx.MaxFeePerCell = 2 }), ErrFeeBelowBasefee},
		{"tip above max fee", transferTx(func(tx *types.Tx) { tx.TipPerCycle = 11 }), ErrTipAboveMaxFee},
		{"payload does not decode", transferTx(func(tx *types.Tx) { tx.Payload = []byte{0x82, 0x01}; tx.CellsLimit = 2 }), ErrPayload},
		{"access list repeats an address", transferTx(func(tx *types.Tx) {
			tx.AccessList = []types.AccessTuple{{Address: bob}, {Address: bob}}
		}), ErrAccessList},
		{"deployment whose payload is not [code, salt, args]", transferTx(func(tx *types.Tx) {
			tx.To = nil
			tx.CyclesLimit = 50_000
			tx.CellsLimit = 200
			tx.Payload = []byte{0x01}
		}), ErrPayload},
		{"signature does not recover", func() *types.Tx {
			tx := transferTx(nil)
			tx.Sig.S = [32]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
				0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}
			dec, _ := types.DecodeTx(tx.Encode()) // drop the cached sender
			return dec
		}(), ErrInvalidSignature},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := setup(t)
			before := len(r)
			st := state.New(r)
			rc, err := ApplyTx(st, ctx(), tt.tx)
			if !errors.Is(err, tt.want) {
				t.Fatalf("got receipt %v err %v, want %s", rc, err, tt.want.Code)
			}
			ws, _ := st.Writes()
			if len(ws) != 0 || len(r) != before {
				t.Fatalf("a refused transaction changed state: %d writes", len(ws))
			}
		})
	}
}

func TestNonceTooLowAfterInclusion(t *testing.T) {
	r := setup(t)
	st := state.New(r)
	tx := transferTx(nil)
	if _, err := ApplyTx(st, ctx(), tx); err != nil {
		t.Fatal(err)
	}
	if _, err := ApplyTx(st, ctx(), tx); !errors.Is(err, ErrNonceTooLow) {
		t.Fatalf("replay: %v", err)
	}
}

func TestBuildRespectsCaps(t *testing.T) {
	r := setup(t)
	st := state.New(r)
	var txs []*types.Tx
	for i := 0; i < 3; i++ {
		n := uint64(i)
		txs = append(txs, transferTx(func(tx *types.Tx) {
			tx.Nonce = n
			tx.CyclesLimit = 10_000
			tx.MaxFeePerCycle = 5
			tx.TipPerCycle = 0
		}))
	}
	// A transaction may use up to its limit, so one whose limit exceeds what
	// the block has left waits for the next block even if it would use less.
	txs[1] = transferTx(func(tx *types.Tx) {
		tx.Nonce = 1
		tx.CyclesLimit = 20_000_000 - 10_000 + 1
		tx.MaxFeePerCycle = 5
		tx.TipPerCycle = 0
	})
	res, err := Build(st, ctx(), txs)
	if err != nil {
		t.Fatal(err)
	}
	// The first fits; the second's limit exceeds the 19,990,000 left and
	// waits; the third (nonce 2) waits with it rather than fail as too high.
	if len(res.Txs) != 1 || len(res.Deferred) != 2 || len(res.Rejected) != 0 || res.CyclesUsed != 10_000 {
		t.Fatalf("included %d deferred %d rejected %d used %d", len(res.Txs), len(res.Deferred), len(res.Rejected), res.CyclesUsed)
	}
}
