package cbfs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/cowboy-chain/cowboy/internal/cputime"
	"io"
	"math/rand/v2"
	"sync"
	"testing"
	"time"
)

func testVolume(t testing.TB) *Volume {
	t.Helper()
	key, err := NewVolumeKey()
	if err != nil {
		t.Fatal(err)
	}
	return &Volume{ID: DeriveVolumeID([20]byte{1, 2, 3}, "logs"), Key: key}
}

// memStore keeps shards in memory as a test stand-in for relays.
type memStore struct {
	mu     sync.Mutex
	shards map[[2]int][]byte
}

func (s *memStore) place(_ context.Context, e *EncodedSegment) ([]RelayID, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.shards == nil {
		s.shards = map[[2]int][]byte{}
	}
	relays := make([]RelayID, len(e.Shards))
	for j, b := range e.Shards {
		s.shards[[2]int{e.Index, j}] = bytes.Clone(b)
		relays[j] = RelayID{byte(j)}
	}
	return relays, nil
}

// fetch appends the shard to dst, as a relay client reading into the
// caller's buffer does (FetchFunc).
func (s *memStore) fetch(_ context.Context, i, j int, dst []byte) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.shards[[2]int{i, j}]
	if !ok {
		return nil, errors.New("missing")
	}
	return append(dst, b...), nil
}

func randBytes(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 1))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

func TestRoundTrip(t *testing.T) {
	seg := MinSegmentSize
	cases := []struct {
		name string
		size int
		k, m int
	}{
		{"empty", 0, 4, 2},
		{"one byte", 1, 4, 2},
		{"exact segment", seg, 4, 2},
		{"segment plus one", seg + 1, 4, 2},
		{"many segments", 7*seg + 123, 4, 2},
		{"no parity", 3*seg + 5, 3, 0},
		{"k=1 replication", 2*seg + 9, 1, 3},
		{"wide", 5*seg + 77, 10, 4},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := testVolume(t)
			data := randBytes(c.size, uint64(c.size))
			var st memStore
			m, err := Encode(context.Background(), v, "dir/file.bin", Params{K: c.k, M: c.m, SegmentSize: seg}, bytes.NewReader(data), 2, st.place)
			if err != nil {
				t.Fatal(err)
			}
			if m.Size != uint64(c.size) || len(m.Segments) != segmentCount(uint64(c.size), seg) {
				t.Fatalf("manifest size %d segments %d", m.Size, len(m.Segments))
			}
			// Drop M shards of every segment (the first M: data shards,
			// so reconstruction is exercised).
			for i := range m.Segments {
				for j := 0; j < c.m; j++ {
					delete(st.shards, [2]int{i, j})
				}
			}
			var out bytes.Buffer
			if err := Decode(context.Background(), v, m, st.fetch, &out, 2, nil); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out.Bytes(), data) {
				t.Fatal("read back differs")
			}
			// One more loss is too many.
			if c.m > 0 || c.k > 0 {
				delete(st.shards, [2]int{0, c.m})
				err := Decode(context.Background(), v, m, st.fetch, io.Discard, 2, nil)
				if !errors.Is(err, ErrTooFewShards) {
					t.Fatalf("with K-1 shards: %v, want ErrTooFewShards", err)
				}
			}
		})
	}
}

func TestTamperedShardIsDetectedAndNotUsed(t *testing.T) {
	v := testVolume(t)
	data := randBytes(3*MinSegmentSize, 7)
	var st memStore
	m, err := Encode(context.Background(), v, "a", Params{K: 4, M: 2, SegmentSize: MinSegmentSize}, bytes.NewReader(data), 1, st.place)
	if err != nil {
		t.Fatal(err)
	}
	st.shards[[2]int{1, 2}][5] ^= 1                   // flip one bit of a data shard
	st.shards[[2]int{2, 0}] = st.shards[[2]int{0, 0}] // a shard moved from another segment
	var bad []BadShard
	var out bytes.Buffer
	if err := Decode(context.Background(), v, m, st.fetch, &out, 1, func(b BadShard) { bad = append(bad, b) }); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Bytes(), data) {
		t.Fatal("read back differs")
	}
	got := map[[2]int]bool{}
	for _, b := range bad {
		if !errors.Is(b.Err, ErrTampered) {
			t.Fatalf("bad shard %+v: want ErrTampered", b)
		}
		got[[2]int{b.Segment, b.Shard}] = true
	}
	if len(got) != 2 || !got[[2]int{1, 2}] || !got[[2]int{2, 0}] {
		t.Fatalf("reported %v, want segment 1 shard 2 and segment 2 shard 0", bad)
	}
}

// A manifest whose segments are reordered (as a relay swapping whole
// segments would need) fails to open: the AAD binds the segment index.
func TestSegmentSwapFailsAuthentication(t *testing.T) {
	v := testVolume(t)
	data := randBytes(2*MinSegmentSize, 9)
	var st memStore
	m, err := Encode(context.Background(), v, "a", Params{K: 2, M: 1, SegmentSize: MinSegmentSize}, bytes.NewReader(data), 1, st.place)
	if err != nil {
		t.Fatal(err)
	}
	m.Segments[0], m.Segments[1] = m.Segments[1], m.Segments[0]
	for j := 0; j < 3; j++ {
		st.shards[[2]int{0, j}], st.shards[[2]int{1, j}] = st.shards[[2]int{1, j}], st.shards[[2]int{0, j}]
	}
	err = Decode(context.Background(), v, m, st.fetch, io.Discard, 1, nil)
	if !errors.Is(err, ErrAuth) {
		t.Fatalf("swapped segments: %v, want ErrAuth", err)
	}
	other := &Volume{ID: DeriveVolumeID([20]byte{9}, "logs"), Key: v.Key}
	m.Segments[0], m.Segments[1] = m.Segments[1], m.Segments[0]
	m.Volume = other.ID
	if err := Decode(context.Background(), other, m, st.fetch, io.Discard, 1, nil); err == nil {
		t.Fatal("a file decoded under another volume's id")
	}
}

func TestMerkleProofs(t *testing.T) {
	for segs := 1; segs <= 9; segs++ {
		for _, km := range [][2]int{{1, 0}, {2, 1}, {4, 2}, {3, 2}} {
			n := km[0] + km[1]
			m := &Manifest{Version: 1, K: uint8(km[0]), M: uint8(km[1]), SegSize: MinSegmentSize, Size: uint64(segs) * MinSegmentSize}
			for i := 0; i < segs; i++ {
				s := Segment{Relays: make([]RelayID, n)}
				for j := 0; j < n; j++ {
					s.Hashes = append(s.Hashes, HashShard([]byte(fmt.Sprint(i, j))))
				}
				m.Segments = append(m.Segments, s)
			}
			root := m.Root()
			for i := 0; i < segs; i++ {
				for j := 0; j < n; j++ {
					p := m.Proof(i, j)
					if err := p.Verify(root, n, m.Segments[i].Hashes[j]); err != nil {
						t.Fatalf("segs=%d k,m=%v leaf %d,%d: %v", segs, km, i, j, err)
					}
					if err := p.Verify(root, n, HashShard([]byte("x"))); err == nil {
						t.Fatal("wrong hash verified")
					}
					if segs*n > 1 {
						q := p
						q.Shard = uint8((j + 1) % n)
						q.Segment = uint64((i + (j+1)/n) % segs)
						if err := q.Verify(root, n, m.Segments[i].Hashes[j]); err == nil {
							t.Fatal("hash verified at another position")
						}
					}
				}
			}
		}
	}
}

func TestCommitmentEncoding(t *testing.T) {
	c := StorageCommitment{Root: [32]byte{1}, File: FileID{2}, Size: 1 << 40, SegSize: 8 << 20, K: 4, M: 2, Version: 1}
	b := c.Bytes()
	if len(b) != CommitmentSize {
		t.Fatalf("commitment is %d bytes", len(b))
	}
	got, err := ParseCommitment(b)
	if err != nil || got != c {
		t.Fatalf("round trip: %+v %v", got, err)
	}
	if _, err := ParseCommitment(b[:63]); err == nil {
		t.Fatal("short commitment parsed")
	}
}

func TestManifestSealing(t *testing.T) {
	v := testVolume(t)
	var st memStore
	m, err := Encode(context.Background(), v, "reports/q3.pdf", Params{K: 2, M: 1, SegmentSize: MinSegmentSize}, bytes.NewReader([]byte("hello")), 1, st.place)
	if err != nil {
		t.Fatal(err)
	}
	tags, _ := v.PathTags("reports/q3.pdf")
	pid := tags[len(tags)-1]
	sealed, err := v.SealManifest(m, pid)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(sealed, []byte("reports")) || bytes.Contains(sealed, []byte("q3.pdf")) {
		t.Fatal("sealed manifest shows the file name")
	}
	got, err := v.OpenManifest(sealed, pid)
	if err != nil || got.Path != "reports/q3.pdf" || got.Root() != m.Root() {
		t.Fatalf("open: %v", err)
	}
	other, _ := v.PathTags("reports/q4.pdf")
	if _, err := v.OpenManifest(sealed, other[1]); err == nil {
		t.Fatal("manifest opened under another path id")
	}
	sealed[len(sealed)-1] ^= 1
	if _, err := v.OpenManifest(sealed, pid); err == nil {
		t.Fatal("tampered manifest opened")
	}
}

func TestPathTagsPrefix(t *testing.T) {
	v := testVolume(t)
	file, _ := v.PathTags("reports/2026/q3.pdf")
	pre, _ := v.PrefixTags("reports/")
	if len(file) != 3 || len(pre) != 1 || pre[0] != file[0] {
		t.Fatal("prefix tags are not a prefix of the file's tags")
	}
	other := &Volume{ID: v.ID}
	otags, _ := other.PathTags("reports/2026/q3.pdf")
	if otags[0] == file[0] {
		t.Fatal("tags do not depend on the volume key")
	}
	for _, p := range []string{"", "/", "a//b", "a/../b", "./a"} {
		if _, err := CleanPath(p); err == nil {
			t.Fatalf("CleanPath(%q) accepted", p)
		}
	}
}

func TestRebuildShardsIsBitExact(t *testing.T) {
	v := testVolume(t)
	var st memStore
	m, err := Encode(context.Background(), v, "a", Params{K: 4, M: 2, SegmentSize: MinSegmentSize}, bytes.NewReader(randBytes(MinSegmentSize*2, 3)), 1, st.place)
	if err != nil {
		t.Fatal(err)
	}
	orig := bytes.Clone(st.shards[[2]int{1, 5}])
	delete(st.shards, [2]int{1, 5})
	delete(st.shards, [2]int{1, 0})
	shards, _, err := RebuildShards(context.Background(), m, 1, st.fetch)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(shards[5], orig) {
		t.Fatal("rebuilt parity shard differs")
	}
}

// BenchmarkEncode measures sealing + Reed-Solomon + shard hashing
// throughput (K=4, M=2, 8 MiB segments) on all cores, bytes of plaintext.
func BenchmarkEncode(b *testing.B) {
	v := testVolume(b)
	const size = 256 << 20
	data := randBytes(size, 1)
	p := Params{K: 4, M: 2, SegmentSize: DefaultSegmentSize}
	discard := func(_ context.Context, e *EncodedSegment) ([]RelayID, error) { return make([]RelayID, 6), nil }
	b.SetBytes(size)
	b.ResetTimer()
	cpu0 := cputime.Process()
	for i := 0; i < b.N; i++ {
		if _, err := Encode(context.Background(), v, "bench", p, bytes.NewReader(data), 0, discard); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu0, int64(b.N)*size)
}

// reportCPU adds MB per CPU-second: what one otherwise idle core does.
func reportCPU(b *testing.B, cpu0 time.Duration, n int64) {
	if d := cputime.Process() - cpu0; d > 0 {
		b.ReportMetric(float64(n)/1e6/d.Seconds(), "MB/cpu-s")
	}
}

// BenchmarkDecode measures verify + Reed-Solomon + open throughput with
// M data shards missing in every segment (the worst case).
func BenchmarkDecode(b *testing.B) {
	v := testVolume(b)
	const size = 128 << 20
	var st memStore
	p := Params{K: 4, M: 2, SegmentSize: DefaultSegmentSize}
	m, err := Encode(context.Background(), v, "bench", p, bytes.NewReader(randBytes(size, 1)), 0, st.place)
	if err != nil {
		b.Fatal(err)
	}
	fetch := func(_ context.Context, i, j int, dst []byte) ([]byte, error) {
		if j < 2 {
			return nil, errors.New("gone")
		}
		return append(dst, st.shards[[2]int{i, j}]...), nil
	}
	b.SetBytes(size)
	b.ResetTimer()
	cpu0 := cputime.Process()
	for i := 0; i < b.N; i++ {
		if err := Decode(context.Background(), v, m, fetch, io.Discard, 0, nil); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu0, int64(b.N)*size)
}

// TestStalledShardIsHedged: a relay that holds a data shard and never
// answers (a relay killed without closing its connection) does not hold
// the read: after the others answered, a parity shard is asked for in its
// place, the stalled fetch is cancelled, and it is reported as ErrSlow.
// Without the hedge this test would wait forever.
func TestStalledShardIsHedged(t *testing.T) {
	v := testVolume(t)
	data := randBytes(3*MinSegmentSize+17, 8)
	var st memStore
	m, err := Encode(context.Background(), v, "a", Params{K: 4, M: 2, SegmentSize: MinSegmentSize}, bytes.NewReader(data), 1, st.place)
	if err != nil {
		t.Fatal(err)
	}
	stalled := func(ctx context.Context, i, j int, dst []byte) ([]byte, error) {
		if j == 1 { // the relay of data shard 1 of every segment hangs
			<-ctx.Done()
			return nil, ctx.Err()
		}
		return st.fetch(ctx, i, j, dst)
	}
	var mu sync.Mutex
	slow := map[int]bool{}
	var out bytes.Buffer
	err = Decode(context.Background(), v, m, stalled, &out, 2, func(b BadShard) {
		mu.Lock()
		defer mu.Unlock()
		if b.Shard != 1 || !errors.Is(b.Err, ErrSlow) {
			t.Errorf("bad shard %+v: want shard 1, ErrSlow", b)
		}
		slow[b.Segment] = true
	})
	if err != nil || !bytes.Equal(out.Bytes(), data) {
		t.Fatalf("read with a stalled relay: %v", err)
	}
	if len(slow) != len(m.Segments) {
		t.Fatalf("stalled shard reported for segments %v, want all %d", slow, len(m.Segments))
	}
}
