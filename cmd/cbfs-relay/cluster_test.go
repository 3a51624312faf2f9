package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"lukechampine.com/blake3"

	"github.com/cowboy-chain/cowboy/cbfs"
	"github.com/cowboy-chain/cowboy/cbfs/cluster"
	"github.com/cowboy-chain/cowboy/crypto"
)

// relayProc is one cbfs-relay process of the test cluster.
type relayProc struct {
	cmd  *exec.Cmd
	info cluster.RelayInfo
	home string
}

func startRelay(t *testing.T, bin, home string) *relayProc {
	t.Helper()
	return startRelayArgs(t, bin, home)
}

// startRelayArgs is startRelay with more flags for `cbfs-relay start`.
func startRelayArgs(t testing.TB, bin, home string, extra ...string) *relayProc {
	t.Helper()
	os.Remove(filepath.Join(home, "relay.json"))
	cmd := exec.Command(bin, append([]string{"start", "--home", home, "--listen", "127.0.0.1:0"}, extra...)...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	for i := 0; i < 600; i++ { // up to a minute on a loaded machine
		b, err := os.ReadFile(filepath.Join(home, "relay.json"))
		if err == nil {
			var info cluster.RelayInfo
			if err := json.Unmarshal(b, &info); err != nil {
				t.Fatal(err)
			}
			return &relayProc{cmd: cmd, info: info, home: home}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("relay in %s did not start: %s", home, out.String())
	return nil
}

// kill9 sends SIGKILL, as kill -9 does.
func (r *relayProc) kill9(t *testing.T) {
	t.Helper()
	if err := r.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	r.cmd.Wait()
}

// prng is a deterministic byte stream, so 100 MiB need not sit in memory.
type prng struct {
	r *rand.Rand
	n int64
}

func (p *prng) Read(b []byte) (int, error) {
	if p.n == 0 {
		return 0, io.EOF
	}
	b = b[:min(int64(len(b)), p.n)]
	for i := 0; i+8 <= len(b); i += 8 {
		v := p.r.Uint64()
		for k := 0; k < 8; k++ {
			b[i+k] = byte(v >> (8 * k))
		}
	}
	for i := len(b) &^ 7; i < len(b); i++ {
		b[i] = byte(p.r.Uint32())
	}
	p.n -= int64(len(b))
	return len(b), nil
}

func hashOf(t *testing.T, r io.Reader) [32]byte {
	h := blake3.New(32, nil)
	if _, err := io.Copy(h, r); err != nil {
		t.Fatal(err)
	}
	var out [32]byte
	h.Sum(out[:0])
	return out
}

// TestClusterKillAndRepair is the check on real processes: six
// cbfs-relay processes on loopback, a file written with K=4 M=2, two
// relays killed with SIGKILL, the file read back intact, repair onto new
// relays restores K+M (two more relays die afterwards and the file still
// reads). The size is 16 MiB by default to keep `go test ./...` cheap on
// two cores; CBFS_E2E_MIB=100 runs the 100 MiB.
func TestClusterKillAndRepair(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs relay processes")
	}
	size := int64(16 << 20)
	if s := os.Getenv("CBFS_E2E_MIB"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			t.Fatalf("CBFS_E2E_MIB=%q", s)
		}
		size = int64(n) << 20
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "cbfs-relay")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	var procs []*relayProc
	for i := 0; i < 6; i++ {
		procs = append(procs, startRelay(t, bin, filepath.Join(dir, "relay"+strconv.Itoa(i))))
	}
	infos := func(ps []*relayProc) []cluster.RelayInfo {
		var out []cluster.RelayInfo
		for _, p := range ps {
			out = append(out, p.info)
		}
		return out
	}
	owner, _ := crypto.GenerateKey()
	key, _ := cbfs.NewVolumeKey()
	vol := &cbfs.Volume{ID: cbfs.DeriveVolumeID(owner.Address(), "logs"), Key: key}
	tok, err := cbfs.Grant(owner, "logs", nil, cbfs.PermRead|cbfs.PermWrite, uint64(time.Now().Add(time.Hour).Unix()), owner.Address(), [8]byte{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	cl, err := cluster.New(infos(procs), owner, tok)
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	p := cbfs.Params{K: 4, M: 2, SegmentSize: 4 << 20}
	want := hashOf(t, &prng{rand.New(rand.NewPCG(1, 2)), size})
	start := time.Now()
	m, err := cl.Put(ctx, vol, "data/big.bin", p, &prng{rand.New(rand.NewPCG(1, 2)), size}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("put %d MiB in %v", size>>20, time.Since(start))
	commit := m.Commitment()

	// Every segment's shards are on six distinct relays.
	for i, s := range m.Segments {
		seen := map[cbfs.RelayID]bool{}
		for _, id := range s.Relays {
			if seen[id] {
				t.Fatalf("segment %d has two shards on relay %x", i, id)
			}
			seen[id] = true
		}
	}

	// Read back with every relay up (the figure docs/benchmarks.md gives
	// for get across processes).
	start = time.Now()
	pr, pw := io.Pipe()
	go func() {
		_, err := cl.Get(ctx, vol, "data/big.bin", pw, nil)
		pw.CloseWithError(err)
	}()
	if h := hashOf(t, pr); h != want {
		t.Fatal("read back differs")
	}
	t.Logf("get %d MiB in %v", size>>20, time.Since(start))

	procs[0].kill9(t)
	procs[2].kill9(t)
	var got bytes.Buffer
	start = time.Now()
	pr, pw = io.Pipe()
	go func() {
		_, err := cl.Get(ctx, vol, "data/big.bin", pw, nil)
		pw.CloseWithError(err)
	}()
	if h := hashOf(t, pr); h != want {
		t.Fatal("read back after two kills differs")
	}
	t.Logf("get with two relays dead in %v", time.Since(start))

	// Two new relays join; repair brings every segment back to K+M on
	// distinct live relays.
	procs = append(procs, startRelay(t, bin, filepath.Join(dir, "relay6")), startRelay(t, bin, filepath.Join(dir, "relay7")))
	cl2, err := cluster.New(infos(procs), owner, tok)
	if err != nil {
		t.Fatal(err)
	}
	defer cl2.Close()
	start = time.Now()
	rep, err := cl2.Repair(ctx, vol, "data/big.bin", int(p.M))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("repair: %+v in %v", rep, time.Since(start))
	if rep.Degraded == 0 || rep.Rebuilt == 0 || rep.Lost != 0 || rep.Root != commit.Root {
		t.Fatalf("repair report %+v", rep)
	}
	again, err := cl2.Repair(ctx, vol, "data/big.bin", int(p.M))
	if err != nil || again.Degraded != 0 {
		t.Fatalf("second repair still found damage: %+v %v", again, err)
	}
	if bad, err := cl2.Audit(ctx, vol, "data/big.bin", 42); err != nil || len(bad) != 0 {
		t.Fatalf("audit after repair: %v %v", bad, err)
	}
	m2, err := cl2.Manifest(ctx, vol, "data/big.bin")
	if err != nil || m2.Seq != 1 || m2.Commitment() != commit {
		t.Fatalf("manifest after repair: seq %v, commitment changed: %v", m2.Seq, err)
	}
	// Redundancy is really back: two more of the original relays die and
	// the file still reads.
	procs[1].kill9(t)
	procs[3].kill9(t)
	pr, pw = io.Pipe()
	go func() {
		_, err := cl2.Get(ctx, vol, "data/big.bin", pw, nil)
		pw.CloseWithError(err)
	}()
	if h := hashOf(t, pr); h != want {
		t.Fatal("read back after repair and two more kills differs")
	}
	// A repaired file (manifest seq 1) can be replaced.
	small := []byte("replaced after repair")
	if _, err := cl2.Put(ctx, vol, "data/big.bin", cbfs.Params{K: 2, M: 1, SegmentSize: cbfs.MinSegmentSize}, bytes.NewReader(small), nil); err != nil {
		t.Fatalf("replace a repaired file: %v", err)
	}
	got.Reset()
	if _, err := cl2.Get(ctx, vol, "data/big.bin", &got, nil); err != nil || !bytes.Equal(got.Bytes(), small) {
		t.Fatalf("read the replacement: %v", err)
	}
	ents, err := cl2.List(ctx, vol)
	if err != nil || len(ents) != 1 || ents[0].Path != "data/big.bin" || ents[0].Size != uint64(len(small)) {
		t.Fatalf("list: %+v %v", ents, err)
	}
}
