package node

import (
	"math/big"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/chain/genesis"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
)

const (
	benchSenders   = 2000
	benchPerSender = 10
)

// benchWorkload is a genesis funding benchSenders fresh accounts and the
// encoded transfers they send (as they would arrive over RPC).
func benchWorkload(b *testing.B) (*genesis.Genesis, [][]byte) {
	b.Helper()
	g := genesis.Devnet()
	keys := make([]*crypto.PrivateKey, benchSenders)
	for i := range keys {
		keys[i], _ = crypto.GenerateKey()
		g.Alloc = append(g.Alloc, genesis.Alloc{Address: types.Address(keys[i].Address()), Balance: new(big.Int).Set(genesis.DevBalance)})
	}
	var raw [][]byte
	for n := 0; n < benchPerSender; n++ {
		for i, k := range keys {
			to := types.Address{byte(i), byte(i >> 8), 0xbe}
			tx := &types.Tx{ChainID: g.ChainID, Nonce: uint64(n), To: &to, Value: big.NewInt(1),
				CyclesLimit: 10_000, MaxFeePerCycle: 10, MaxFeePerCell: 10, TipPerCycle: 1, Payload: []byte{}}
			tx.Sign(k)
			raw = append(raw, tx.Encode())
		}
	}
	return g, raw
}

func decodeAll(b *testing.B, raw [][]byte) []*types.Tx {
	txs := make([]*types.Tx, len(raw))
	for i, r := range raw {
		var err error
		if txs[i], err = types.DecodeTx(r); err != nil {
			b.Fatal(err)
		}
	}
	return txs
}

// BenchmarkTransfers measures signed transfers admitted, executed and
// committed per second, block by block, the way the node runs: transactions
// arrive in batches of 500 (as from RPC) and have their signatures
// recovered on all cores while the block loop builds, executes and commits
// blocks of up to 2,000 transfers (the 20M-cycle cap) with fsync.
func BenchmarkTransfers(b *testing.B) { benchTransfers(b, true) }

// BenchmarkTransfersSequential is the same work with no overlap: every
// signature is recovered first, then the blocks are made.
func BenchmarkTransfersSequential(b *testing.B) { benchTransfers(b, false) }

func benchTransfers(b *testing.B, pipelined bool) {
	g, raw := benchWorkload(b)
	var total time.Duration
	var blocks int
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		txs := decodeAll(b, raw)
		n, err := Open(Config{Home: b.TempDir(), Genesis: g, Logger: quietLog(), MaxBlockTxs: 10_000})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		start := time.Now()
		done := make(chan struct{})
		submit := func() {
			defer close(done)
			for j := 0; j < len(txs); j += 500 {
				for _, err := range n.SubmitBatch(txs[j:min(j+500, len(txs))]) {
					if err != nil {
						b.Error(err)
						return
					}
				}
			}
		}
		if pipelined {
			go submit()
		} else {
			submit()
		}
		included := 0
		for included < len(txs) {
			// Like a block timer: build once a full block (2,000 transfers
			// fill the 20M-cycle cap) is waiting, or all have arrived.
			finished := false
			select {
			case <-done:
				finished = true
			default:
			}
			if n.pool.Len() < 2000 && !finished {
				time.Sleep(100 * time.Microsecond)
				continue
			}
			if n.pool.Len() == 0 {
				b.Fatalf("submission ended with %d of %d included", included, len(txs))
			}
			blk, err := n.ProduceBlock()
			if err != nil {
				b.Fatal(err)
			}
			included += len(blk.Txs)
			blocks++
		}
		total += time.Since(start)
		b.StopTimer()
		<-done
		n.Close()
	}
	b.ReportMetric(float64(len(raw)*b.N)/total.Seconds(), "tx/s")
	b.ReportMetric(float64(blocks)/float64(b.N), "blocks/op")
}

// BenchmarkRecoverCeiling is the ceiling signature recovery alone sets:
// the same transactions, recovered on all cores and nothing else.
func BenchmarkRecoverCeiling(b *testing.B) {
	_, raw := benchWorkload(b)
	var total time.Duration
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		txs := decodeAll(b, raw)
		b.StartTimer()
		start := time.Now()
		var wg sync.WaitGroup
		workers := runtime.GOMAXPROCS(0)
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				for j := w; j < len(txs); j += workers {
					if _, err := txs[j].Sender(); err != nil {
						b.Error(err)
						return
					}
				}
			}(w)
		}
		wg.Wait()
		total += time.Since(start)
	}
	b.ReportMetric(float64(len(raw)*b.N)/total.Seconds(), "tx/s")
}
