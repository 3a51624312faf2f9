package node

import (
	"math/big"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/consensus/simplex"
	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/internal/cputime"
	"github.com/cowboy-chain/cowboy/internal/gctune"
)

const (
	syncBenchBlocks   = 10
	syncBenchPerBlock = 2000 // a full block of transfers (20M cycles)
	syncBenchSenders  = 10   // dev0…dev9
)

// syncBenchPayloads are the encoded payloads of syncBenchBlocks full
// blocks of transfers from the dev accounts, signed once for every run.
func syncBenchPayloads(b *testing.B, chainID uint64, start uint64) [][]byte {
	b.Helper()
	out := make([][]byte, syncBenchBlocks)
	nonces := make([]uint64, syncBenchSenders)
	keys := make([]*crypto.PrivateKey, syncBenchSenders)
	for i := range keys {
		keys[i] = devKey(b, i)
	}
	for h := range out {
		p := &payload{Time: start + uint64(h) + 1}
		for i := 0; i < syncBenchPerBlock; i++ {
			s := i % syncBenchSenders
			to := types.Address{byte(i), byte(i >> 8), 0x5c}
			tx := &types.Tx{ChainID: chainID, Nonce: nonces[s], To: &to, Value: big.NewInt(1),
				CyclesLimit: 10_000, MaxFeePerCycle: 100, MaxFeePerCell: 100, TipPerCycle: 1, Payload: []byte{}}
			nonces[s]++
			tx.Sign(keys[s])
			p.Txs = append(p.Txs, tx)
		}
		enc, err := p.encode()
		if err != nil {
			b.Fatal(err)
		}
		out[h] = enc
	}
	return out
}

// BenchmarkSyncReplay is a full node replaying finalized blocks as sync
// applies them (node/sync.go): syncBenchBlocks blocks of 2,000 transfers,
// arriving as bytes (no sender known), applied in order. "ahead" is
// replayFinal (applyFinals), which executes each block while the one
// before it is synced and recovers the next block's senders meanwhile;
// "serial" applies them one by one through applyFinal. The
// finality certificates are not verified here (applySync checks one BLS
// aggregate per block before replaying). Reports transfers and blocks per
// second, the process's CPU time per run, and how many blocks were
// executed while the block below them was still being written and synced
// (the pipeline, blockpipe.go; serial applies each block alone, so 0).
func BenchmarkSyncReplay(b *testing.B) {
	gctune.Start() // as cowboyd runs (GOGC=100 in the environment: without)
	for _, mode := range []struct {
		name  string
		ahead bool
	}{{"ahead", true}, {"serial", false}} {
		b.Run(mode.name, func(b *testing.B) {
			var wall, cpu time.Duration
			var overlapped uint64
			var payloads [][]byte
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				tn := newTestNet(b, 4)
				v := tn.open(0)
				if payloads == nil {
					payloads = syncBenchPayloads(b, tn.gen.ChainID, tn.gen.Time)
				}
				chain := make([]simplex.Certified, len(payloads))
				parent := tn.gen.Hash()
				for h, p := range payloads {
					blk := &simplex.Block{Parent: parent, Height: uint64(h + 1), Round: uint64(h + 1), Proposer: 0, Payload: p}
					chain[h] = finalize(blk)
					parent = blk.Hash()
				}
				b.StartTimer()
				start, cpu0, piped0 := time.Now(), cputime.Process(), v.pipelined.Load()
				var err error
				if mode.ahead {
					err = v.replayFinal(chain, nil)
				} else {
					for _, c := range chain {
						if err = v.applyFinal(c, nil); err != nil {
							break
						}
					}
				}
				wall += time.Since(start)
				cpu += cputime.Process() - cpu0
				overlapped += v.pipelined.Load() - piped0
				b.StopTimer()
				if err != nil {
					b.Fatal(err)
				}
				if nonce, _, _ := v.Account(types.Address(devKey(b, 0).Address())); v.Head().Height != syncBenchBlocks || nonce != syncBenchBlocks*syncBenchPerBlock/syncBenchSenders {
					b.Fatalf("head %d, dev0 nonce %d: not every transfer committed", v.Head().Height, nonce)
				}
				v.Close()
			}
			n := float64(b.N)
			b.ReportMetric(n*syncBenchBlocks*syncBenchPerBlock/wall.Seconds(), "tx/s")
			b.ReportMetric(n*syncBenchBlocks/wall.Seconds(), "blocks/s")
			b.ReportMetric(float64(cpu.Milliseconds())/n, "cpu-ms/op")
			b.ReportMetric(float64(overlapped)/n, "overlapped-blocks/op")
		})
	}
}
