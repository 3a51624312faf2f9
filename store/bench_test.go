package store

import (
	"encoding/binary"
	"math/rand"
	"testing"

	"github.com/cockroachdb/pebble/v2"

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

func benchStore(b *testing.B) *Store {
	s, err := Open(b.TempDir(), Options{})
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
func BenchmarkUpdates(b *testing.B) {
	s := benchStore(b)
	defer s.Close()
	rng := rand.New(rand.NewSource(2))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ws := make([]Write, benchBlock)
		for j := range ws {
			ws[j] = Write{Key: benchKey(rng.Intn(benchKeys)), Value: benchValue(rng)}
		}
		if _, err := s.Commit(uint64(i+1), &Batch{State: ws}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(benchBlock*b.N)/b.Elapsed().Seconds(), "updates/s")
}

// BenchmarkBarePebble is the same workload written to Pebble with no
// commitment: the baseline the store's cost is measured against.
func BenchmarkBarePebble(b *testing.B) {
	db, err := pebble.Open(b.TempDir(), &pebble.Options{Logger: quietLogger{}})
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
