package cluster

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/cbfs"
	"github.com/cowboy-chain/cowboy/cbfs/relay"
	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/internal/cputime"
)

type testCluster struct {
	srvs  []*relay.Server
	infos []RelayInfo
	owner *crypto.PrivateKey
	vol   *cbfs.Volume
	tok   *cbfs.Token
	dirs  []string             // each relay's store, for restarts
	keys  []*crypto.PrivateKey // each relay's node key
}

func newTestCluster(tb testing.TB, n int) *testCluster {
	tb.Helper()
	tc := &testCluster{}
	for i := 0; i < n; i++ {
		k, _ := crypto.GenerateKey()
		dir := tb.TempDir()
		tc.dirs, tc.keys = append(tc.dirs, dir), append(tc.keys, k)
		srv, err := relay.New(relay.Config{Dir: dir, Listen: "127.0.0.1:0", Key: k})
		if err != nil {
			tb.Fatal(err)
		}
		if err := srv.Start(); err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { srv.Close() })
		tc.srvs = append(tc.srvs, srv)
		tc.infos = append(tc.infos, RelayInfo{ID: srv.ID(), Addr: srv.Addr()})
	}
	tc.owner, _ = crypto.GenerateKey()
	key, _ := cbfs.NewVolumeKey()
	tc.vol = &cbfs.Volume{ID: cbfs.DeriveVolumeID(tc.owner.Address(), "v"), Key: key}
	tc.tok, _ = cbfs.Grant(tc.owner, "v", nil, cbfs.PermRead|cbfs.PermWrite, uint64(time.Now().Add(time.Hour).Unix()), tc.owner.Address(), [8]byte{})
	return tc
}

func (tc *testCluster) client(tb testing.TB) *Cluster {
	c, err := New(tc.infos, tc.owner, tc.tok)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(c.Close)
	return c
}

func randData(n int) []byte {
	r := rand.New(rand.NewPCG(uint64(n), 3))
	b := make([]byte, n)
	for i := 0; i+8 <= n; i += 8 {
		v := r.Uint64()
		for k := 0; k < 8; k++ {
			b[i+k] = byte(v >> (8 * k))
		}
	}
	return b
}

func TestPlacementIsDeterministicAndDistinct(t *testing.T) {
	var rs []RelayInfo
	for i := 0; i < 10; i++ {
		rs = append(rs, RelayInfo{ID: cbfs.RelayID{byte(i)}, Addr: "x"})
	}
	a := Rank(segmentSeed(cbfs.FileID{1}, 3), rs)
	rev := append([]RelayInfo(nil), rs...)
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	b := Rank(segmentSeed(cbfs.FileID{1}, 3), rev)
	seen := map[cbfs.RelayID]bool{}
	for i := range a {
		if a[i] != b[i] {
			t.Fatal("ranking depends on the list's order")
		}
		if seen[a[i].ID] {
			t.Fatal("a relay ranked twice")
		}
		seen[a[i].ID] = true
	}
	if c := Rank(segmentSeed(cbfs.FileID{1}, 4), rs); c[0] == a[0] && c[1] == a[1] && c[2] == a[2] {
		t.Log("two segments share their first three relays (possible, unlikely)")
	}
	for _, s := range []string{"", "0x12@1.2.3.4:5", "zz@a", "0x" + string(bytes.Repeat([]byte("a"), 40))} {
		if _, err := ParseRelay(s); err == nil {
			t.Fatalf("ParseRelay(%q) accepted", s)
		}
	}
	p, err := ParseRelay("0x" + string(bytes.Repeat([]byte("ab"), 20)) + "@127.0.0.1:7450")
	if err != nil || p.Addr != "127.0.0.1:7450" || p.ID[0] != 0xab {
		t.Fatalf("ParseRelay: %+v %v", p, err)
	}
	f := filepath.Join(t.TempDir(), "r.json")
	js, err := p.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f, append(append([]byte("["), js...), ']'), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := LoadRelays(f); err != nil || len(got) != 1 || got[0] != p {
		t.Fatalf("LoadRelays json: %v %v", got, err)
	}
}

// TestPutGetDeleteInProcess writes, reads, audits, loses two relays,
// reads and audits again, and deletes, against six in-process relays.
func TestPutGetDeleteInProcess(t *testing.T) {
	tc := newTestCluster(t, 6)
	c := tc.client(t)
	ctx := context.Background()
	data := randData(3*cbfs.MinSegmentSize*4 + 11)
	m, err := c.Put(ctx, tc.vol, "a/b.bin", cbfs.Params{K: 4, M: 2, SegmentSize: 4 * cbfs.MinSegmentSize}, bytes.NewReader(data), nil)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	var last int64
	if _, err := c.Get(ctx, tc.vol, "a/b.bin", &out, func(n int64) { last = n }); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Bytes(), data) || last != int64(len(data)) {
		t.Fatal("get differs")
	}
	// Challenges pass on every shard.
	if bad, err := c.Audit(ctx, tc.vol, "a/b.bin", 7); err != nil || len(bad) != 0 {
		t.Fatalf("audit: %v %v", bad, err)
	}
	// Stop two relays in process: reads still work, audit names their shards.
	tc.srvs[1].Close()
	tc.srvs[4].Close()
	c2 := tc.client(t)
	out.Reset()
	if _, err := c2.Get(ctx, tc.vol, "a/b.bin", &out, nil); err != nil || !bytes.Equal(out.Bytes(), data) {
		t.Fatalf("get with two relays down: %v", err)
	}
	bad, _ := c2.Audit(ctx, tc.vol, "a/b.bin", 7)
	want := 0
	for _, s := range m.Segments {
		for _, id := range s.Relays {
			if id == tc.infos[1].ID || id == tc.infos[4].ID {
				want++
			}
		}
	}
	if len(bad) != want || want == 0 {
		t.Fatalf("audit found %d bad shards, want %d", len(bad), want)
	}
	// Replacing a file (with another shape) reads back the new bytes.
	data2 := randData(5000)
	if _, err := c2.Put(ctx, tc.vol, "a/b.bin", cbfs.Params{K: 2, M: 1, SegmentSize: cbfs.MinSegmentSize}, bytes.NewReader(data2), nil); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if _, err := c2.Get(ctx, tc.vol, "a/b.bin", &out, nil); err != nil || !bytes.Equal(out.Bytes(), data2) {
		t.Fatalf("get after replace: %v", err)
	}
	if err := c2.Delete(ctx, tc.vol, "a/b.bin"); err != nil {
		t.Fatal(err)
	}
	if _, err := c2.Get(ctx, tc.vol, "a/b.bin", io.Discard, nil); err == nil {
		t.Fatal("deleted file still reads")
	}
	if _, err := c2.Put(ctx, tc.vol, "x", cbfs.Params{K: 4, M: 3, SegmentSize: cbfs.MinSegmentSize}, bytes.NewReader(data), nil); err == nil {
		t.Fatal("k+m=7 placed on 6 relays")
	}
}

func benchCluster(b *testing.B, size int) (*testCluster, *Cluster, []byte) {
	tc := newTestCluster(b, 6)
	return tc, tc.client(b), randData(size)
}

// BenchmarkPut is end-to-end put (encrypt, erasure-code, QUIC upload to
// six in-process relays storing in Pebble) on loopback, K=4 M=2, 8 MiB
// segments; bytes are plaintext.
func BenchmarkPut(b *testing.B) {
	const size = 64 << 20
	tc, c, data := benchCluster(b, size)
	b.SetBytes(size)
	b.ResetTimer()
	defer reportCPU(b, cputime.Process(), int64(b.N)*size)
	for i := 0; i < b.N; i++ {
		if _, err := c.Put(context.Background(), tc.vol, "bench", cbfs.Params{K: 4, M: 2, SegmentSize: cbfs.DefaultSegmentSize}, bytes.NewReader(data), nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGet is end-to-end get of the same file.
func BenchmarkGet(b *testing.B) {
	const size = 64 << 20
	tc, c, data := benchCluster(b, size)
	if _, err := c.Put(context.Background(), tc.vol, "bench", cbfs.Params{K: 4, M: 2, SegmentSize: cbfs.DefaultSegmentSize}, bytes.NewReader(data), nil); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(size)
	b.ResetTimer()
	defer reportCPU(b, cputime.Process(), int64(b.N)*size)
	for i := 0; i < b.N; i++ {
		if _, err := c.Get(context.Background(), tc.vol, "bench", io.Discard, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLocalDisk writes (with fsync) and reads back the same bytes to
// a local file: the baseline put and get are compared with.
func BenchmarkLocalDisk(b *testing.B) {
	const size = 64 << 20
	data := randData(size)
	f := filepath.Join(b.TempDir(), "f")
	b.SetBytes(2 * size)
	defer reportCPU(b, cputime.Process(), int64(b.N)*2*size)
	for i := 0; i < b.N; i++ {
		fh, err := os.Create(f)
		if err != nil {
			b.Fatal(err)
		}
		fh.Write(data)
		fh.Sync()
		fh.Close()
		got, _ := os.ReadFile(f)
		if len(got) != size {
			b.Fatal("short read")
		}
	}
}

// BenchmarkLocalDiskWrite is the write half of BenchmarkLocalDisk (write
// and fsync a new file): the baseline for put alone.
func BenchmarkLocalDiskWrite(b *testing.B) {
	const size = 64 << 20
	data := randData(size)
	dir := b.TempDir()
	b.SetBytes(size)
	defer reportCPU(b, cputime.Process(), int64(b.N)*size)
	for i := 0; i < b.N; i++ {
		f := filepath.Join(dir, "f"+strconv.Itoa(i))
		if err := writeSynced(f, data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLocalDiskRead is the read half (the file was just written, so
// it is read from the page cache, as the relays' shard files are in
// BenchmarkGet): the baseline for get alone.
func BenchmarkLocalDiskRead(b *testing.B) {
	const size = 64 << 20
	f := filepath.Join(b.TempDir(), "f")
	if err := writeSynced(f, randData(size)); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(size)
	b.ResetTimer()
	defer reportCPU(b, cputime.Process(), int64(b.N)*size)
	for i := 0; i < b.N; i++ {
		got, err := os.ReadFile(f)
		if err != nil || len(got) != size {
			b.Fatal("short read", err)
		}
	}
}

func writeSynced(path string, data []byte) error {
	fh, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := fh.Write(data); err != nil {
		fh.Close()
		return err
	}
	if err := fh.Sync(); err != nil {
		fh.Close()
		return err
	}
	return fh.Close()
}

// reportCPU adds MB per CPU-second (client and relays together, as they
// share this process).
func reportCPU(b *testing.B, cpu0 time.Duration, n int64) {
	if d := cputime.Process() - cpu0; d > 0 {
		b.ReportMetric(float64(n)/1e6/d.Seconds(), "MB/cpu-s")
	}
}

// BenchmarkRepair stops two of six relays and repairs a 64 MiB file onto
// two new ones; bytes are the file's plaintext size.
func BenchmarkRepair(b *testing.B) {
	const size = 64 << 20
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		tc := newTestCluster(b, 8)
		first := tc.infos[:6]
		c, _ := New(first, tc.owner, tc.tok)
		if _, err := c.Put(context.Background(), tc.vol, "bench", cbfs.Params{K: 4, M: 2, SegmentSize: cbfs.DefaultSegmentSize}, bytes.NewReader(randData(size)), nil); err != nil {
			b.Fatal(err)
		}
		c.Close()
		tc.srvs[0].Close()
		tc.srvs[1].Close()
		c2 := tc.client(b)
		b.StartTimer()
		rep, err := c2.Repair(context.Background(), tc.vol, "bench", 2)
		if err != nil || rep.Rebuilt == 0 {
			b.Fatalf("repair: %+v %v", rep, err)
		}
	}
	b.SetBytes(size)
}

// TestListQuorumCancelsStalledRelay lists a volume whose relay list holds
// one relay that never answers (a bare UDP socket: the QUIC handshake
// never completes). The listing must return every file from the others
// and cancel the stalled request, not wait for it to time out.
func TestListQuorumCancelsStalledRelay(t *testing.T) {
	tc := newTestCluster(t, 4)
	put := tc.client(t)
	p := cbfs.Params{K: 2, M: 1, SegmentSize: 4096}
	want := []string{"a/x", "b", "c/d/e"}
	for i, name := range want {
		if _, err := put.Put(context.Background(), tc.vol, name, p, bytes.NewReader(randData(1000*(i+1))), nil); err != nil {
			t.Fatal(err)
		}
	}
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	k, _ := crypto.GenerateKey()
	stalled := RelayInfo{ID: cbfs.RelayID(k.Address()), Addr: pc.LocalAddr().String()}
	c, err := New(append(slices.Clone(tc.infos), stalled), tc.owner, tc.tok)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	done := make(chan error, 1)
	c.listDone = func(id cbfs.RelayID, err error) {
		if id == stalled.ID {
			done <- err
		}
	}
	tests := []struct {
		name     string
		tolerate int
	}{{"tolerate M", int(p.M)}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ents, err := c.ListQuorum(context.Background(), tc.vol, tt.tolerate)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range ents {
				got = append(got, e.Path)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("listed %v, want %v", got, want)
			}
			// The listing returned; the stalled relay's request must end
			// because it was cancelled (a timeout is another error).
			if err := <-done; !errors.Is(err, context.Canceled) {
				t.Fatalf("stalled relay's request ended with %v, want context.Canceled", err)
			}
		})
	}
}

// TestRenameMovesNoShard renames files (to a free path and over an
// existing file) and checks that no relay received a shard, that a fresh
// client reads the file under its new path, and that the old path is
// gone.
func TestRenameMovesNoShard(t *testing.T) {
	tc := newTestCluster(t, 5)
	c := tc.client(t)
	ctx := context.Background()
	p := cbfs.Params{K: 2, M: 2, SegmentSize: 4096}
	uploads := func() int64 {
		var n int64
		for _, s := range tc.srvs {
			n += s.PutShards.Load()
		}
		return n
	}
	tests := []struct {
		name     string
		from, to string
		occupied bool // a file already sits at to
	}{
		{"free path", "a/f", "b/c/g", false},
		{"over a file", "h", "i", true},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := randData(10000 + i)
			src, err := c.Put(ctx, tc.vol, tt.from, p, bytes.NewReader(data), nil)
			if err != nil {
				t.Fatal(err)
			}
			var tgtSeq uint64
			if tt.occupied {
				m, err := c.Put(ctx, tc.vol, tt.to, p, bytes.NewReader(randData(500)), nil)
				if err != nil {
					t.Fatal(err)
				}
				tgtSeq = m.Seq
			}
			before := uploads()
			m, err := c.Rename(ctx, tc.vol, tt.from, tt.to)
			if err != nil {
				t.Fatal(err)
			}
			if n := uploads() - before; n != 0 {
				t.Fatalf("rename uploaded %d shards", n)
			}
			if want := max(src.Seq, tgtSeq) + 1; m.Seq != want {
				t.Fatalf("renamed manifest seq %d, want %d (one above the moved and the replaced file's)", m.Seq, want)
			}
			fresh := tc.client(t)
			var got bytes.Buffer
			if _, err := fresh.Get(ctx, tc.vol, tt.to, &got, nil); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), data) {
				t.Fatal("renamed file reads back different bytes")
			}
			if _, err := fresh.Manifest(ctx, tc.vol, tt.from); err == nil {
				t.Fatalf("%s still has a manifest after the rename", tt.from)
			}
			ents, err := fresh.List(ctx, tc.vol)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range ents {
				if e.Path == tt.from {
					t.Fatalf("%s still listed", tt.from)
				}
			}
		})
	}
}
