package store

import (
	"encoding/binary"
	"fmt"
	"math/rand"
	"testing"

	"github.com/cockroachdb/pebble/v2"

	"github.com/cowboy-chain/cowboy/internal/cputime"
	"github.com/cowboy-chain/cowboy/internal/pebblelog"
	"github.com/cowboy-chain/cowboy/store/verifier"
)

// The benchmark workload: a state of benchKeys accounts, then blocks of
// 10,000 random updates (32-byte values), each block committed with fsync
// and its root computed.
const (
	benchKeys  = 200_000
	benchBlock = 10_000
)

func benchKey(i int) Key {
	var a [20]byte
	binary.BigEndian.PutUint32(a[:], uint32(i))
	return MakeKey(KindAccount, a, 0, [32]byte{})
}

func benchValue(rng *rand.Rand) []byte {
	v := make([]byte, 32)
	rng.Read(v)
	return v
}

func benchStore(b *testing.B) *Store { return benchStoreIn(b, b.TempDir(), Options{}) }

func benchStoreIn(b *testing.B, dir string, opts Options) *Store {
	s, err := Open(dir, opts)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewSource(1))
	ws := make([]Write, benchKeys)
	for i := range ws {
		ws[i] = Write{Key: benchKey(i), Value: benchValue(rng)}
	}
	if _, err := s.Commit(0, &Batch{State: ws}); err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkUpdates: updates per second with a root every 10,000 updates.
// retain=1 keeps one version and writes no undo logs. retain=256 (the
// default) keeps the versions in memory and writes one undo log per block,
// with the previous value of each of the 10,000 keys (undo-bytes/block is
// its size); retain=256,no-undo-log is the same without the log (the
// store before undo logs), so the difference between the two is the log's
// cost per commit. cpu-ms/block is the CPU time of the whole process per
// block (all cores, Pebble's flushes and compactions and the garbage
// collector included).
func BenchmarkUpdates(b *testing.B) {
	for _, c := range []struct {
		retain int
		noLog  bool
	}{{1, false}, {256, true}, {256, false}} {
		name := fmt.Sprintf("retain=%d", c.retain)
		if c.noLog {
			name += ",no-undo-log"
		}
		b.Run(name, func(b *testing.B) {
			s := benchStoreIn(b, b.TempDir(), Options{Retain: c.retain})
			defer s.Close()
			s.noUndoLog = c.noLog
			rng := rand.New(rand.NewSource(2))
			b.ResetTimer()
			cpu0 := cputime.Process()
			for i := 0; i < b.N; i++ {
				if _, err := s.Commit(uint64(i+1), &Batch{State: benchBlockWrites(rng)}); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(benchBlock*b.N)/b.Elapsed().Seconds(), "updates/s")
			b.ReportMetric(float64(cputime.Process()-cpu0)/1e6/float64(b.N), "cpu-ms/block")
			if rec, err := s.get(undoKey(uint64(b.N))); err == nil {
				b.ReportMetric(float64(len(rec)), "undo-bytes/block")
			}
		})
	}
}

func benchBlockWrites(rng *rand.Rand) []Write {
	ws := make([]Write, benchBlock)
	for j := range ws {
		ws[j] = Write{Key: benchKey(rng.Intn(benchKeys)), Value: benchValue(rng)}
	}
	return ws
}

// BenchmarkOpen: reopening a store of 200,000 records after 32 blocks of
// 10,000 updates. retain=1 rebuilds the newest tree only; retain=32 also
// rebuilds the 31 older versions from the undo logs.
func BenchmarkOpen(b *testing.B) {
	const blocks = 32
	dir := b.TempDir()
	s := benchStoreIn(b, dir, Options{Retain: blocks, NoSync: true})
	rng := rand.New(rand.NewSource(2))
	for i := 0; i < blocks; i++ {
		if _, err := s.Commit(uint64(i+1), &Batch{State: benchBlockWrites(rng)}); err != nil {
			b.Fatal(err)
		}
	}
	s.Close()
	for _, retain := range []int{1, blocks} {
		b.Run(fmt.Sprintf("retain=%d", retain), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				s, err := Open(dir, Options{Retain: retain})
				if err != nil {
					b.Fatal(err)
				}
				if n := len(s.versions); n != retain {
					b.Fatalf("%d versions after open", n)
				}
				s.Close()
			}
		})
	}
}

// BenchmarkBarePebble is the same workload written to Pebble with no
// commitment: the baseline the store's cost is measured against.
// options=store opens Pebble as the store does (pebbleOptions: a 32 MiB
// memtable), the like-for-like baseline; options=default with Pebble's
// defaults, the baseline of the measurements before the store set options.
func BenchmarkBarePebble(b *testing.B) {
	for _, c := range []struct {
		name string
		opts *pebble.Options
	}{{"store", pebbleOptions()}, {"default", &pebble.Options{Logger: pebblelog.Quiet{}}}} {
		b.Run("options="+c.name, func(b *testing.B) { benchBarePebble(b, c.opts) })
	}
}

func benchBarePebble(b *testing.B, opts *pebble.Options) {
	db, err := pebble.Open(b.TempDir(), opts)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	rng := rand.New(rand.NewSource(1))
	pb := db.NewBatch()
	for i := 0; i < benchKeys; i++ {
		pb.Set(entryKey(StateDB, benchKey(i)), benchValue(rng), nil)
	}
	pb.Commit(pebble.Sync)
	rng = rand.New(rand.NewSource(2))
	b.ResetTimer()
	cpu0 := cputime.Process()
	for i := 0; i < b.N; i++ {
		pb := db.NewBatch()
		for j := 0; j < benchBlock; j++ {
			pb.Set(entryKey(StateDB, benchKey(rng.Intn(benchKeys))), benchValue(rng), nil)
		}
		if err := pb.Commit(pebble.Sync); err != nil {
			b.Fatal(err)
		}
		pb.Close()
	}
	b.ReportMetric(float64(benchBlock*b.N)/b.Elapsed().Seconds(), "updates/s")
	b.ReportMetric(float64(cputime.Process()-cpu0)/1e6/float64(b.N), "cpu-ms/block")
}

// BenchmarkReads: random reads of committed values.
func BenchmarkReads(b *testing.B) {
	s := benchStore(b)
	defer s.Close()
	rng := rand.New(rand.NewSource(3))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.Get(StateDB, benchKey(rng.Intn(benchKeys))); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "reads/s")
}

// BenchmarkProveVerify: proof size and verification time at 200,000 keys.
func BenchmarkProveVerify(b *testing.B) {
	s := benchStore(b)
	defer s.Close()
	h, roots, _ := s.LastCommitted()
	key := benchKey(12345)
	val, _ := s.Get(StateDB, key)
	p, _ := s.Prove(StateDB, key, h)
	enc, _ := p.MarshalBinary()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := verifier.Verify(roots.State, key[:], val, p); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(enc)), "proof-bytes")
}
