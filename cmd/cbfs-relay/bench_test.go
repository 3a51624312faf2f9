package main

import (
	"bytes"
	"context"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/cbfs"
	"github.com/cowboy-chain/cowboy/cbfs/cluster"
	"github.com/cowboy-chain/cowboy/crypto"
)

// BenchmarkProcesses is the throughput check: put and get of
// CBFS_E2E_MIB (default 100) MiB with K=4, M=2 against six cbfs-relay
// processes on loopback, each beside the same bytes written (and
// fsynced) to and read from a local file in the same iteration, so the
// ratios see the same machine load. With CBFS_RELAY_PROFILE=DIR each
// relay writes a CPU profile there (stopped with SIGINT at the end); the
// client's is go test's -cpuprofile. CBFS_RELAY_BIN runs a relay binary
// built elsewhere (to compare builds); CBFS_RELAY_PROCS=N starts the
// relays with --procs N. On Linux it also reports the
// CPU-seconds of each phase, this process and the six relays together
// (put-cpu-s beside local-write-cpu-s): the load of other jobs on a
// shared machine moves those much less than wall time.
//
//	go test -run XXX -bench Processes -benchtime 3x ./cmd/cbfs-relay/
func BenchmarkProcesses(b *testing.B) {
	size := 100 << 20
	if s := os.Getenv("CBFS_E2E_MIB"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			b.Fatalf("CBFS_E2E_MIB=%q", s)
		}
		size = n << 20
	}
	profDir := os.Getenv("CBFS_RELAY_PROFILE")
	dir := b.TempDir()
	// CBFS_RELAY_PROCS=1 runs each relay's Go code on one thread (--procs);
	// the default, 0, is one per core, as in earlier measurements.
	nprocs := os.Getenv("CBFS_RELAY_PROCS")
	if nprocs == "" {
		nprocs = "0"
	}
	// CBFS_RELAY_NO_TCP=1 starts the relays with --no-tcp: shards move over
	// QUIC, as before the TCP bulk path (the A side of an A/B run).
	noTCP := os.Getenv("CBFS_RELAY_NO_TCP") == "1"
	bin := os.Getenv("CBFS_RELAY_BIN") // a relay built elsewhere (before/after runs)
	if bin == "" {
		bin = filepath.Join(dir, "cbfs-relay")
		if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
			b.Fatalf("go build: %v\n%s", err, out)
		}
	}
	var infos []cluster.RelayInfo
	var procs []*relayProc
	for i := 0; i < 6; i++ {
		home := filepath.Join(dir, "relay"+strconv.Itoa(i))
		extra := []string{"--procs", nprocs}
		if noTCP {
			extra = append(extra, "--no-tcp")
		}
		if profDir != "" {
			extra = append(extra, "--cpuprofile", filepath.Join(profDir, "relay"+strconv.Itoa(i)+".pprof"))
		}
		p := startRelayArgs(b, bin, home, extra...)
		procs = append(procs, p)
		infos = append(infos, p.info)
	}
	defer func() {
		for _, p := range procs { // SIGINT: the relays write their profiles
			p.cmd.Process.Signal(syscall.SIGINT)
			p.cmd.Wait()
		}
	}()
	owner, _ := crypto.GenerateKey()
	key, _ := cbfs.NewVolumeKey()
	vol := &cbfs.Volume{ID: cbfs.DeriveVolumeID(owner.Address(), "bench"), Key: key}
	tok, err := cbfs.Grant(owner, "bench", nil, cbfs.PermRead|cbfs.PermWrite, uint64(time.Now().Add(time.Hour).Unix()), owner.Address(), [8]byte{})
	if err != nil {
		b.Fatal(err)
	}
	cl, err := cluster.New(infos, owner, tok)
	if err != nil {
		b.Fatal(err)
	}
	defer cl.Close()
	data := make([]byte, size)
	if _, err := io.ReadFull(&prng{rand.New(rand.NewPCG(3, 4)), int64(size)}, data); err != nil {
		b.Fatal(err)
	}
	p := cbfs.Params{K: 4, M: 2, SegmentSize: cbfs.DefaultSegmentSize}
	ctx := context.Background()
	local := filepath.Join(dir, "local.bin")
	var pids []int
	for _, pr := range procs {
		pids = append(pids, pr.cmd.Process.Pid)
	}
	var putT, getT, writeT, readT time.Duration
	var putC, getC, writeC, readC time.Duration // CPU: this process + the relays
	b.SetBytes(int64(size))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start, c0 := time.Now(), cpuTime(pids)
		f, err := os.Create(local)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := f.Write(data); err != nil {
			b.Fatal(err)
		}
		if err := f.Sync(); err != nil {
			b.Fatal(err)
		}
		f.Close()
		writeT += time.Since(start)
		c1 := cpuTime(pids)
		writeC += c1 - c0

		start = time.Now()
		if _, err := cl.Put(ctx, vol, "bench.bin", p, bytes.NewReader(data), nil); err != nil {
			b.Fatal(err)
		}
		putT += time.Since(start)
		c2 := cpuTime(pids)
		putC += c2 - c1

		start = time.Now()
		f, err = os.Open(local)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := io.Copy(io.Discard, f); err != nil {
			b.Fatal(err)
		}
		f.Close()
		readT += time.Since(start)
		c3 := cpuTime(pids)
		readC += c3 - c2

		start = time.Now()
		if _, err := cl.Get(ctx, vol, "bench.bin", io.Discard, nil); err != nil {
			b.Fatal(err)
		}
		getT += time.Since(start)
		getC += cpuTime(pids) - c3
	}
	b.StopTimer()
	n := float64(b.N)
	b.ReportMetric(putT.Seconds()/n, "put-s")
	b.ReportMetric(writeT.Seconds()/n, "local-write-s")
	b.ReportMetric(putT.Seconds()/writeT.Seconds(), "put/local")
	b.ReportMetric(getT.Seconds()/n, "get-s")
	b.ReportMetric(readT.Seconds()/n, "local-read-s")
	b.ReportMetric(getT.Seconds()/readT.Seconds(), "get/local")
	if putC > 0 { // CPU-seconds, client and relays together (Linux)
		b.ReportMetric(putC.Seconds()/n, "put-cpu-s")
		b.ReportMetric(writeC.Seconds()/n, "local-write-cpu-s")
		b.ReportMetric(getC.Seconds()/n, "get-cpu-s")
		b.ReportMetric(readC.Seconds()/n, "local-read-cpu-s")
	}
}
