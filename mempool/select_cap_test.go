package mempool

import (
	"encoding/binary"
	"math/big"
	"slices"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/fees"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
)

// mkPayload is a transfer carrying a canonical CBOR byte string of n bytes
// as payload: n plus the item's head in cells of intrinsic cost (§17.4).
func mkPayload(k *crypto.PrivateKey, nonce, tip uint64, n int) *types.Tx {
	var payload []byte
	switch {
	case n < 24:
		payload = []byte{0x40 + byte(n)}
	case n < 1<<16:
		payload = binary.BigEndian.AppendUint16([]byte{0x59}, uint16(n))
	default:
		payload = binary.BigEndian.AppendUint32([]byte{0x5a}, uint32(n))
	}
	payload = append(payload, make([]byte, n)...)
	to := types.Address{0x99}
	tx := &types.Tx{ChainID: 7, Nonce: nonce, To: &to, Value: big.NewInt(1), CyclesLimit: 10_000, CellsLimit: uint64(len(payload)),
		MaxFeePerCycle: 100, MaxFeePerCell: 100, TipPerCycle: tip, Payload: payload}
	tx.Sign(k)
	return tx
}

// mkDeploy is a deployment (fees.DeployCycles of intrinsic cycles) whose
// ordering fee, 50,000 cycles at the basefee 5 and no tip, is below a
// transfer's at tip 50 and above one's at tip 0.
func mkDeploy(k *crypto.PrivateKey, nonce uint64) *types.Tx {
	payload, err := (&types.DeployPayload{Code: "x = 1\n", Salt: make([]byte, types.SaltSize)}).Encode()
	if err != nil {
		panic(err)
	}
	_, cells := fees.Intrinsic(fees.KindDeploy, len(payload))
	tx := &types.Tx{ChainID: 7, Nonce: nonce, Value: big.NewInt(0), CyclesLimit: fees.DeployCycles, CellsLimit: cells,
		MaxFeePerCycle: 5, MaxFeePerCell: 1, Payload: payload}
	tx.Sign(k)
	return tx
}

// TestSelectStopsAtBlockCaps: Select takes no more candidates than a block
// can hold by their intrinsic costs (§17.2, §17.8), whatever max allows;
// one that does not fit what is left stops its sender, smaller ones still
// join.
func TestSelectStopsAtBlockCaps(t *testing.T) {
	type want struct {
		count         int
		cycles, cells uint64
		excluded      []int // indexes into txs that must not be selected
	}
	for _, tt := range []struct {
		name string
		txs  func() []*types.Tx
		want want
	}{
		{"transfers beyond the cycle cap", func() []*types.Tx {
			var txs []*types.Tx
			for s := 0; s < 35; s++ {
				for n := uint64(0); n < 60; n++ {
					txs = append(txs, mk(key(byte(s+1)), n, 100, 1))
				}
			}
			return txs
		}, want{count: 2000, cycles: fees.CapCycles}},
		{"a candidate over the cells left is skipped, a smaller one joins", func() []*types.Tx {
			var txs []*types.Tx
			for s := 0; s < 9; s++ { // 9 × 110,005 cells of the 1,000,000
				txs = append(txs, mkPayload(key(byte(s+1)), 0, 9, 110_000))
			}
			txs = append(txs,
				mkPayload(key(20), 0, 8, 20_000), // 9: 20,003 cells do not fit the 9,955 left
				mkPayload(key(20), 1, 8, 0),      // 10: waits for its sender's nonce 0
				mkPayload(key(21), 0, 7, 5_000),  // 11: fits
			)
			return txs
		}, want{count: 10, cycles: 10 * fees.TransferCycles, cells: 9*110_005 + 5_003, excluded: []int{9, 10}}},
		{"a candidate filling the cells left exactly joins", func() []*types.Tx {
			var txs []*types.Tx
			for s := 0; s < 9; s++ {
				txs = append(txs, mkPayload(key(byte(s+1)), 0, 9, 110_000))
			}
			return append(txs, mkPayload(key(20), 0, 8, 9_952)) // 9,955 cells: exactly what is left
		}, want{count: 10, cycles: 10 * fees.TransferCycles, cells: fees.CapCells}},
		{"a candidate over the cycles left is skipped, smaller ones fill the block", func() []*types.Tx {
			var txs []*types.Tx
			for i := range 1_996 { // 19,960,000 cycles at the highest fee
				txs = append(txs, mk(key(byte(i/60+1)), uint64(i%60), 100, 50))
			}
			// 1,996: a deploy (50,000 cycles) ordered next, over the 40,000 left.
			txs = append(txs, mkDeploy(key(40), 0))
			for n := range uint64(5) { // 1,997–2,001: transfers ordered last; 4 fit
				txs = append(txs, mk(key(41), n, 100, 0))
			}
			return txs
		}, want{count: 2000, cycles: fees.CapCycles, excluded: []int{1996, 2001}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := New(Config{ChainID: 7})
			st := view{}
			txs := tt.txs()
			for i, err := range p.AddBatch(txs, st, bf) {
				if err != nil {
					t.Fatalf("add %d: %v", i, err)
				}
			}
			got := p.Select(st, bf, 10_000)
			var cycles, cells uint64
			for _, tx := range got {
				c, b := fees.TxIntrinsic(tx)
				cycles, cells = cycles+c, cells+b
			}
			if len(got) != tt.want.count || cycles != tt.want.cycles || cells != tt.want.cells {
				t.Fatalf("selected %d (%d cycles, %d cells), want %d (%d, %d)", len(got), cycles, cells, tt.want.count, tt.want.cycles, tt.want.cells)
			}
			for _, i := range tt.want.excluded {
				if slices.Contains(got, txs[i]) {
					t.Fatalf("tx %d selected", i)
				}
			}
		})
	}
}
