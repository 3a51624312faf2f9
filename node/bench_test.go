package node

import (
	"math/big"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/chain/genesis"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/internal/cputime"
	"github.com/cowboy-chain/cowboy/internal/gctune"
	"github.com/cowboy-chain/cowboy/pvm/cbor"
)

const (
	benchSenders   = 2000
	benchPerSender = 10
)

// fundSenders makes benchSenders fresh keys and funds them in g.
func fundSenders(g *genesis.Genesis) []*crypto.PrivateKey {
	keys := make([]*crypto.PrivateKey, benchSenders)
	for i := range keys {
		keys[i], _ = crypto.GenerateKey()
		g.Alloc = append(g.Alloc, genesis.Alloc{Address: types.Address(keys[i].Address()), Balance: new(big.Int).Set(genesis.DevBalance)})
	}
	return keys
}

// benchWorkload is a genesis funding benchSenders fresh accounts and the
// encoded transfers they send (as they would arrive over RPC). The
// process's collector runs as cowboyd's does (gctune.Start; GOGC=100 in the
// environment measures without it).
func benchWorkload(b *testing.B) (*genesis.Genesis, [][]byte) {
	b.Helper()
	gctune.Start()
	g := genesis.Devnet()
	keys := fundSenders(g)
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
// blocks of up to 2,000 transfers (the 20M-cycle cap) with fsync, each
// block built while the one before it is synced (blockpipe.go).
func BenchmarkTransfers(b *testing.B) { benchTransfers(b, true) }

// BenchmarkTransfersSequential is the same work with no overlap: every
// signature is recovered first, then the blocks are made.
func BenchmarkTransfersSequential(b *testing.B) { benchTransfers(b, false) }

func benchTransfers(b *testing.B, pipelined bool) {
	g, raw := benchWorkload(b)
	benchBlocks(b, g, raw, pipelined, 2000, nil, nil)
}

// BenchmarkTransfersRecovered is BenchmarkTransfers with every sender
// recovered before the clock starts: its cpu-ms/op is the CPU a transfer
// costs besides signature recovery (admission, selection, execution,
// receipts, the store's commit, garbage collection), the part the issue's
// ratio to the recovery ceiling depends on. CPU time, unlike the wall
// rate, moves little with the load of other jobs on the host.
func BenchmarkTransfersRecovered(b *testing.B) {
	g, raw := benchWorkload(b)
	var total, cpu time.Duration
	for i := 0; i < b.N; i++ {
		r := runBlocksWith(b, g, raw, true, true, 2000, nil, nil)
		total += r.wall
		cpu += r.cpu
	}
	b.ReportMetric(float64(len(raw)*b.N)/total.Seconds(), "tx/s")
	b.ReportMetric(float64(cpu.Microseconds())/float64(len(raw)*b.N), "cpu-us/tx")
}

// benchBlocks admits raw (in batches of 500, signatures recovered on all
// cores, concurrently with block making when pipelined) into a fresh node
// per iteration and makes blocks once perBlock transactions wait, until all
// are included; it reports transactions per second and the process's CPU
// time per iteration. setup runs on the fresh node before the clock starts.
func benchBlocks(b *testing.B, g *genesis.Genesis, raw [][]byte, pipelined bool, perBlock int, setup, check func(*Node)) {
	var total, cpu time.Duration
	var blocks int
	for i := 0; i < b.N; i++ {
		r := runBlocks(b, g, raw, pipelined, perBlock, setup, check)
		total += r.wall
		cpu += r.cpu
		blocks += r.blocks
	}
	b.ReportMetric(float64(len(raw)*b.N)/total.Seconds(), "tx/s")
	b.ReportMetric(float64(blocks)/float64(b.N), "blocks/op")
	b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
}

// runResult is one timed iteration: wall-clock time, the CPU time of the
// whole process on all threads (garbage collection and Pebble included),
// and the blocks made.
type runResult struct {
	wall, cpu time.Duration
	blocks    int
}

// runBlocks is one iteration of benchBlocks on a fresh node; the timer runs
// only while the transactions are submitted and the blocks made.
func runBlocks(b *testing.B, g *genesis.Genesis, raw [][]byte, pipelined bool, perBlock int, setup, check func(*Node)) runResult {
	return runBlocksWith(b, g, raw, pipelined, false, perBlock, setup, check)
}

// runBlocksWith is runBlocks, with every sender recovered before the clock
// starts when recovered is set.
func runBlocksWith(b *testing.B, g *genesis.Genesis, raw [][]byte, pipelined, recovered bool, perBlock int, setup, check func(*Node)) runResult {
	b.StopTimer()
	txs := decodeAll(b, raw)
	if recovered {
		recoverSenders(txs)
	}
	n, err := Open(Config{Home: b.TempDir(), Genesis: g, Logger: quietLog(), MaxBlockTxs: 10_000})
	if err != nil {
		b.Fatal(err)
	}
	defer n.Close()
	if setup != nil {
		setup(n)
	}
	runtime.GC() // start each iteration from the same heap
	b.StartTimer()
	start, cpu0 := time.Now(), cputime.Process()
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
	included, blocks := 0, 0
	for included < len(txs) {
		// Like a block timer: build once a full block (2,000 transfers
		// fill the 20M-cycle cap) is waiting, or all have arrived.
		// A block only holds what fits under its caps; the rest waits.
		finished := false
		select {
		case <-done:
			finished = true
		default:
		}
		if n.pool.Len() < perBlock && !finished {
			// Wait as Run does: SubmitBatch wakes the producer.
			select {
			case <-n.wake:
			case <-done:
			}
			continue
		}
		if n.pool.Len() == 0 {
			b.Fatalf("submission ended with %d of %d included", included, len(txs))
		}
		// As the on-demand devnet does (produceBurst): each block is
		// built while the one before it is synced. prodMu is released
		// between blocks with one in flight, unlike produceBurst: nothing
		// else here takes it, and Close (which does) runs after the drain.
		n.prodMu.Lock()
		blk, err := n.produceAhead()
		n.prodMu.Unlock()
		if err != nil {
			b.Fatal(err)
		}
		included += len(blk.Txs)
		blocks++
	}
	n.prodMu.Lock()
	err = n.drainLocked() // the last block is committed when the clock stops
	n.prodMu.Unlock()
	if err != nil {
		b.Fatal(err)
	}
	r := runResult{wall: time.Since(start), cpu: cputime.Process() - cpu0, blocks: blocks}
	b.StopTimer()
	<-done
	if check != nil {
		check(n)
	}
	return r
}

// BenchmarkRecoverCeiling is the ceiling signature recovery alone sets:
// the same transactions, recovered on all cores and nothing else.
func BenchmarkRecoverCeiling(b *testing.B) {
	_, raw := benchWorkload(b)
	var total, cpu time.Duration
	for i := 0; i < b.N; i++ {
		r := runCeiling(b, raw)
		total += r.wall
		cpu += r.cpu
	}
	b.ReportMetric(float64(len(raw)*b.N)/total.Seconds(), "tx/s")
	b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
}

// runCeiling recovers the senders of freshly decoded copies of raw on
// GOMAXPROCS goroutines, timing only the recovery.
func runCeiling(b *testing.B, raw [][]byte) runResult {
	b.StopTimer()
	txs := decodeAll(b, raw)
	runtime.GC()
	b.StartTimer()
	start, cpu0 := time.Now(), cputime.Process()
	// Workers take the next transaction from a shared counter rather than
	// a fixed share each: with a fixed share, a core slowed by another
	// job leaves the other idle at the end, which lowers the ceiling and
	// flatters the ratio.
	var wg sync.WaitGroup
	var next atomic.Int64
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := int(next.Add(1) - 1); j < len(txs); j = int(next.Add(1) - 1) {
				if _, err := txs[j].Sender(); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	r := runResult{wall: time.Since(start), cpu: cputime.Process() - cpu0}
	b.StopTimer()
	return r
}

// BenchmarkTransfersVsCeiling is the ratio measured so that the
// host's speed cannot drift between its two halves: each iteration runs
// the ceiling (BenchmarkRecoverCeiling's work) and then the transfers
// (BenchmarkTransfers' work) back to back on the same transactions, and
// the ratio of the two rates is taken per iteration. It reports both rates
// over all iterations, the median per-iteration ratio in percent
// (pct-of-ceiling), and the ratio of CPU times (pct-cpu: the recovery's
// share of the CPU the transfers used, which other jobs on the machine
// disturb much less; the wall-clock ratio cannot exceed it by much).
func BenchmarkTransfersVsCeiling(b *testing.B) {
	g, raw := benchWorkload(b)
	var wallC, wallT, cpuC, cpuT time.Duration
	ratios := make([]float64, 0, b.N)
	for i := 0; i < b.N; i++ {
		c := runCeiling(b, raw)
		t := runBlocks(b, g, raw, true, 2000, nil, nil)
		wallC += c.wall
		wallT += t.wall
		cpuC += c.cpu
		cpuT += t.cpu
		ratios = append(ratios, c.wall.Seconds()/t.wall.Seconds())
	}
	slices.Sort(ratios)
	n := float64(len(raw) * b.N)
	b.ReportMetric(n/wallT.Seconds(), "tx/s")
	b.ReportMetric(n/wallC.Seconds(), "ceiling-tx/s")
	b.ReportMetric(100*ratios[len(ratios)/2], "pct-of-ceiling")
	b.ReportMetric(100*ratios[0], "pct-min")
	b.ReportMetric(100*ratios[len(ratios)-1], "pct-max")
	b.ReportMetric(100*cpuC.Seconds()/cpuT.Seconds(), "pct-cpu")
	b.ReportMetric(float64(cpuT.Milliseconds())/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(cpuC.Milliseconds())/float64(b.N), "ceiling-cpu-ms/op")
}

// benchCounter is the plain counter of examples/counter.
const benchCounter = `class Actor:
    def __init__(self):
        self.counter = 0

    def increment(self):
        self.counter += 1
        return self.counter
`

const benchActors = 16

// BenchmarkActorCalls measures counter increments per second through the
// whole executor: signed transaction → signature recovery → mempool →
// PVM (module, state restore, method, state save) → storage → receipt →
// commit with fsync. 20,000 calls from 2,000 senders go to 16 counters
// (one actor's handlers may use 1,000,000 cycles a block, §12.1, so one
// counter alone would cap a block at ~2,000 calls anyway); each call's
// cycles limit is 11,000, so a block holds up to 1,818 of them.
func BenchmarkActorCalls(b *testing.B) {
	g := genesis.Devnet()
	dev0, _ := genesis.DevKey(0)
	canon, _ := types.CanonicalSource([]byte(benchCounter))
	codeHash := types.Hash(crypto.Keccak256(canon))
	var deploys []*types.Tx
	var counters []types.Address
	for i := 0; i < benchActors; i++ {
		salt := make([]byte, 32)
		salt[31] = byte(i)
		pl, _ := (&types.DeployPayload{Code: benchCounter, Salt: salt}).Encode()
		tx := &types.Tx{ChainID: g.ChainID, Nonce: uint64(i), Value: new(big.Int), CyclesLimit: 200_000, CellsLimit: 2_000,
			MaxFeePerCycle: 10, MaxFeePerCell: 10, Payload: pl}
		tx.Sign(dev0)
		deploys = append(deploys, tx)
		counters = append(counters, types.ActorAddress(types.Address(dev0.Address()), salt, codeHash))
	}
	call, _ := (&types.CallPayload{Method: "increment"}).Encode()
	keys := fundSenders(g)
	var raw [][]byte
	for n := 0; n < benchPerSender; n++ {
		for i, k := range keys {
			to := counters[(i+n)%benchActors]
			tx := &types.Tx{ChainID: g.ChainID, Nonce: uint64(n), To: &to, Value: new(big.Int),
				CyclesLimit: 11_000, CellsLimit: 200, MaxFeePerCycle: 10, MaxFeePerCell: 10, TipPerCycle: 1, Payload: call}
			tx.Sign(k)
			raw = append(raw, tx.Encode())
		}
	}
	benchBlocks(b, g, raw, true, 1818, func(n *Node) {
		for _, err := range n.SubmitBatch(deploys) {
			if err != nil {
				b.Fatal(err)
			}
		}
		blk, err := n.ProduceBlock()
		if err != nil || len(blk.Txs) != benchActors {
			b.Fatalf("deploy block: %v (%d txs)", err, len(blk.Txs))
		}
		for _, tx := range blk.Txs {
			rc, _, err := n.Receipt(tx.Hash())
			if err != nil || rc.Status != types.ReceiptSuccess {
				b.Fatalf("deploy failed: %v %+v", err, rc)
			}
		}
	}, func(n *Node) {
		// Every call must have succeeded, or the rate means nothing; each
		// counter ends at its share of the calls.
		for i, r := range raw {
			if i%97 != 0 {
				continue
			}
			tx, _ := types.DecodeTx(r)
			rc, _, err := n.Receipt(tx.Hash())
			if err != nil || rc.Status != types.ReceiptSuccess {
				b.Fatalf("call %d: %v %+v", i, err, rc)
			}
		}
		st := n.newState()
		total := 0
		for _, a := range counters {
			raw := st.GetStorage(a, 1, []byte("__dict__"))
			v, err := cbor.DecodeGo(raw)
			if err != nil {
				b.Fatal(err)
			}
			total += int(v.(cbor.Map)[0].Value.(int64))
		}
		if total != len(raw) {
			b.Fatalf("counters sum to %d, want %d", total, len(raw))
		}
	})
}

// BenchmarkBlockPipeline isolates what building block N+1 while block N
// is synced (blockpipe.go) gives the block loop: each iteration admits
// the same 20,000 transfers into two fresh nodes (untimed, senders
// recovered) and times making all their blocks, once block by block
// (ProduceBlock: execute, commit, fsync, next) and once pipelined
// (produceAhead), in alternating order. It reports both rates, the median
// per-iteration ratio (pct-pipelined-vs-serial) and both CPU times.
func BenchmarkBlockPipeline(b *testing.B) {
	g, raw := benchWorkload(b)
	var wallS, wallP, cpuS, cpuP time.Duration
	ratios := make([]float64, 0, b.N)
	for i := 0; i < b.N; i++ {
		var s, p runResult
		if i%2 == 0 {
			s = runBlockLoop(b, g, raw, false)
			p = runBlockLoop(b, g, raw, true)
		} else {
			p = runBlockLoop(b, g, raw, true)
			s = runBlockLoop(b, g, raw, false)
		}
		wallS += s.wall
		wallP += p.wall
		cpuS += s.cpu
		cpuP += p.cpu
		ratios = append(ratios, s.wall.Seconds()/p.wall.Seconds())
	}
	slices.Sort(ratios)
	n := float64(len(raw) * b.N)
	b.ReportMetric(n/wallS.Seconds(), "serial-tx/s")
	b.ReportMetric(n/wallP.Seconds(), "pipelined-tx/s")
	b.ReportMetric(100*ratios[len(ratios)/2], "pct-pipelined-vs-serial")
	b.ReportMetric(float64(cpuS.Milliseconds())/float64(b.N), "serial-cpu-ms/op")
	b.ReportMetric(float64(cpuP.Milliseconds())/float64(b.N), "pipelined-cpu-ms/op")
}

// runBlockLoop admits raw into a fresh node, untimed, then times making
// blocks of at most 2,000 transfers until all are committed.
func runBlockLoop(b *testing.B, g *genesis.Genesis, raw [][]byte, pipelined bool) runResult {
	b.StopTimer()
	txs := decodeAll(b, raw)
	n, err := Open(Config{Home: b.TempDir(), Genesis: g, Logger: quietLog(), MaxBlockTxs: 10_000})
	if err != nil {
		b.Fatal(err)
	}
	defer n.Close()
	for _, err := range n.SubmitBatch(txs) {
		if err != nil {
			b.Fatal(err)
		}
	}
	runtime.GC()
	b.StartTimer()
	start, cpu0 := time.Now(), cputime.Process()
	included, blocks := 0, 0
	for included < len(txs) {
		var blk *types.Block
		if pipelined {
			n.prodMu.Lock()
			blk, err = n.produceAhead()
			n.prodMu.Unlock()
		} else {
			blk, err = n.ProduceBlock()
		}
		if err != nil {
			b.Fatal(err)
		}
		if len(blk.Txs) == 0 {
			b.Fatalf("empty block with %d of %d included", included, len(txs))
		}
		included += len(blk.Txs)
		blocks++
	}
	n.prodMu.Lock()
	err = n.drainLocked()
	n.prodMu.Unlock()
	if err != nil {
		b.Fatal(err)
	}
	r := runResult{wall: time.Since(start), cpu: cputime.Process() - cpu0, blocks: blocks}
	b.StopTimer()
	if head := n.Head().Height; head != uint64(blocks) {
		b.Fatalf("head %d after %d blocks", head, blocks)
	}
	return r
}
