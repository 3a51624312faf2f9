package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
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
// (put-cpu-s beside local-write-cpu-s; *-relays-cpu-s is the relays'
// part): the load of other jobs on a shared machine moves those much less
// than wall time.
//
// Reads are measured twice. Warm: right after the put, the local file and
// the relays' shard files are in the page cache, so local-read-s is a
// memory copy (get/local). Cold: the local file and every file of the
// relays' homes are dropped from the page cache first (posix_fadvise
// DONTNEED), so local-cold-read-s and cold-get-s read from the disk
// (cold-get/cold-local); *-disk-MiB (read_bytes of /proc/PID/io, this
// process and the relays) shows how much each phase really read from the
// block device. docs/decisions.md ("CBFS get against local disk") says
// why both are reported.
//
//	go test -run XXX -bench Processes -benchtime 3x ./cmd/cbfs-relay/
func BenchmarkProcesses(b *testing.B) {
	size := benchSize(b)
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
	vol, cl, data, p := benchVolume(b, infos, size)
	defer cl.Close()
	ctx := context.Background()
	local := filepath.Join(dir, "local.bin")
	var pids []int
	for _, pr := range procs {
		pids = append(pids, pr.cmd.Process.Pid)
	}
	// Each phase's wall time, CPU (this process + the relays) and bytes
	// the block layer read for them (/proc/PID/io read_bytes).
	type phase struct {
		t, c, relays time.Duration // relays: the relay processes' part of c
		disk         int64
	}
	var put, get, coldGet, write, read, coldRead phase
	run := func(ph *phase, f func() error) {
		start, c0, s0, d0 := time.Now(), cpuTime(pids), cpuTime(nil), diskReadBytes(pids)
		if err := f(); err != nil {
			b.Fatal(err)
		}
		ph.t += time.Since(start)
		c1, s1 := cpuTime(pids), cpuTime(nil)
		ph.c += c1 - c0
		ph.relays += (c1 - c0) - (s1 - s0)
		if d0 >= 0 {
			ph.disk += diskReadBytes(pids) - d0
		}
	}
	// The local reads use 2 MiB reads, as the relays read a shard (io.Copy
	// to io.Discard would read 8 KiB at a time).
	rbuf := make([]byte, 2<<20)
	readLocal := func() error {
		f, err := os.Open(local)
		if err != nil {
			return err
		}
		defer f.Close()
		for {
			_, err := f.Read(rbuf)
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
		}
	}
	b.SetBytes(int64(size))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		run(&write, func() error {
			f, err := os.Create(local)
			if err != nil {
				return err
			}
			if _, err := f.Write(data); err != nil {
				return err
			}
			return errors.Join(f.Sync(), f.Close())
		})
		run(&put, func() error {
			_, err := cl.Put(ctx, vol, "bench.bin", p, bytes.NewReader(data), nil)
			return err
		})
		// Warm: the local file, and the relays' shard files, are in the
		// page cache (they were just written).
		run(&read, readLocal)
		run(&get, func() error {
			_, err := cl.Get(ctx, vol, "bench.bin", io.Discard, nil)
			return err
		})
		// Cold: the same reads after the files (the local one; every file
		// of every relay's home, shards and Pebble alike) were dropped from
		// the page cache, so their bytes come from the disk. read_bytes
		// shows whether they did.
		b.StopTimer()
		if err := evictTree(local); err != nil {
			b.Fatal(err)
		}
		for _, pr := range procs {
			if err := evictTree(pr.home); err != nil {
				b.Fatal(err)
			}
		}
		b.StartTimer()
		run(&coldRead, readLocal)
		run(&coldGet, func() error {
			_, err := cl.Get(ctx, vol, "bench.bin", io.Discard, nil)
			return err
		})
	}
	b.StopTimer()
	n := float64(b.N)
	b.ReportMetric(put.t.Seconds()/n, "put-s")
	b.ReportMetric(write.t.Seconds()/n, "local-write-s")
	b.ReportMetric(put.t.Seconds()/write.t.Seconds(), "put/local")
	b.ReportMetric(get.t.Seconds()/n, "get-s")
	b.ReportMetric(read.t.Seconds()/n, "local-read-s")
	b.ReportMetric(get.t.Seconds()/read.t.Seconds(), "get/local")
	b.ReportMetric(coldGet.t.Seconds()/n, "cold-get-s")
	b.ReportMetric(coldRead.t.Seconds()/n, "local-cold-read-s")
	b.ReportMetric(coldGet.t.Seconds()/coldRead.t.Seconds(), "cold-get/cold-local")
	b.ReportMetric(get.t.Seconds()/coldRead.t.Seconds(), "get/cold-local")
	if put.c > 0 { // CPU-seconds, client and relays together (Linux)
		b.ReportMetric(put.c.Seconds()/n, "put-cpu-s")
		b.ReportMetric(write.c.Seconds()/n, "local-write-cpu-s")
		b.ReportMetric(get.c.Seconds()/n, "get-cpu-s")
		b.ReportMetric(read.c.Seconds()/n, "local-read-cpu-s")
		b.ReportMetric(coldGet.c.Seconds()/n, "cold-get-cpu-s")
		b.ReportMetric(coldRead.c.Seconds()/n, "local-cold-read-cpu-s")
		b.ReportMetric(put.relays.Seconds()/n, "put-relays-cpu-s")
		b.ReportMetric(get.relays.Seconds()/n, "get-relays-cpu-s")
		b.ReportMetric(coldGet.relays.Seconds()/n, "cold-get-relays-cpu-s")
	}
	if diskReadBytes(pids) >= 0 { // MiB the block layer read per phase (Linux)
		b.ReportMetric(float64(get.disk)/n/(1<<20), "get-disk-MiB")
		b.ReportMetric(float64(coldGet.disk)/n/(1<<20), "cold-get-disk-MiB")
		b.ReportMetric(float64(read.disk)/n/(1<<20), "local-read-disk-MiB")
		b.ReportMetric(float64(coldRead.disk)/n/(1<<20), "local-cold-read-disk-MiB")
	}
}

// BenchmarkPhases runs puts alone and cold gets alone against six
// cbfs-relay processes (as BenchmarkProcesses: CBFS_E2E_MIB, default 100,
// K=4, M=2, CBFS_RELAY_BIN), so each can be profiled or counted from
// outside by itself, and reports the user and the system CPU-seconds
// of this process (the client) and of the six relays apart. "put" puts
// the file to a new path each time (no replace); "cold-get" drops every
// relay file from the page cache and gets one file. A put and a get to
// warm the buffers run before the timer. With CBFS_RELAY_PIDS=FILE the
// relays' process ids are written there (space-separated) after that
// warm-up, for perf stat -p or strace -p; CBFS_PHASE_WAIT=FILE then
// waits until FILE exists before going on (to attach them). go test runs
// a sub-benchmark once with b.N=1 before -benchtime Nx, so a tool
// attached that way sees N+1 operations.
//
//	go test -run XXX -bench Phases -benchtime 4x ./cmd/cbfs-relay/
func BenchmarkPhases(b *testing.B) {
	size := benchSize(b)
	dir := b.TempDir()
	bin := os.Getenv("CBFS_RELAY_BIN")
	if bin == "" {
		bin = filepath.Join(dir, "cbfs-relay")
		if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
			b.Fatalf("go build: %v\n%s", err, out)
		}
	}
	var infos []cluster.RelayInfo
	var procs []*relayProc
	var pids []string
	for i := 0; i < 6; i++ {
		p := startRelayArgs(b, bin, filepath.Join(dir, "relay"+strconv.Itoa(i)))
		procs = append(procs, p)
		infos = append(infos, p.info)
		pids = append(pids, strconv.Itoa(p.cmd.Process.Pid))
	}
	vol, cl, data, p := benchVolume(b, infos, size)
	defer cl.Close()
	ctx := context.Background()
	put := func(name string) error {
		_, err := cl.Put(ctx, vol, name, p, bytes.NewReader(data), nil)
		return err
	}
	get := func() error {
		_, err := cl.Get(ctx, vol, "warm", io.Discard, nil)
		return err
	}
	if err := errors.Join(put("warm"), get()); err != nil { // buffers, connections
		b.Fatal(err)
	}
	var relayPIDs []int
	for _, pr := range procs {
		relayPIDs = append(relayPIDs, pr.cmd.Process.Pid)
	}
	if f := os.Getenv("CBFS_RELAY_PIDS"); f != "" {
		if err := os.WriteFile(f, []byte(strings.Join(pids, " ")+"\n"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	if f := os.Getenv("CBFS_PHASE_WAIT"); f != "" {
		for {
			if _, err := os.Stat(f); err == nil {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	// run times op b.N times; prep (if any) runs before each, off the
	// clock and off the CPU counts.
	run := func(b *testing.B, prep func() error, op func(i int) error) {
		b.SetBytes(int64(size))
		var cu, cs, ru, rs time.Duration
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if prep != nil {
				b.StopTimer()
				if err := prep(); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
			}
			su0, ss0, u0, s0 := userSys(relayPIDs)
			if err := op(i); err != nil {
				b.Fatal(err)
			}
			su1, ss1, u1, s1 := userSys(relayPIDs)
			cu, cs, ru, rs = cu+su1-su0, cs+ss1-ss0, ru+u1-u0, rs+s1-s0
		}
		b.StopTimer()
		n := float64(b.N)
		b.ReportMetric(cu.Seconds()/n, "client-user-cpu-s")
		b.ReportMetric(cs.Seconds()/n, "client-sys-cpu-s")
		b.ReportMetric(ru.Seconds()/n, "relays-user-cpu-s")
		b.ReportMetric(rs.Seconds()/n, "relays-sys-cpu-s")
	}
	b.Run("put", func(b *testing.B) {
		run(b, nil, func(i int) error { return put("bench-" + strconv.Itoa(i) + "-" + strconv.Itoa(b.N)) })
	})
	b.Run("cold-get", func(b *testing.B) {
		run(b, func() error {
			for _, pr := range procs {
				if err := evictTree(pr.home); err != nil {
					return err
				}
			}
			return nil
		}, func(int) error { return get() })
	})
}

// benchVolume makes a volume owned by a fresh key, a cluster client over
// infos with a read-write token for it, size bytes of seeded data and the
// K=4, M=2 parameters every process benchmark puts with.
func benchVolume(b *testing.B, infos []cluster.RelayInfo, size int) (*cbfs.Volume, *cluster.Cluster, []byte, cbfs.Params) {
	b.Helper()
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
	data := make([]byte, size)
	if _, err := io.ReadFull(&prng{rand.New(rand.NewPCG(3, 4)), int64(size)}, data); err != nil {
		cl.Close()
		b.Fatal(err)
	}
	return vol, cl, data, cbfs.Params{K: 4, M: 2, SegmentSize: cbfs.DefaultSegmentSize}
}

// benchSize is the file size the process benchmarks put: 100 MiB, or
// CBFS_E2E_MIB MiB when set (a quick run).
func benchSize(b *testing.B) int {
	b.Helper()
	s := os.Getenv("CBFS_E2E_MIB")
	if s == "" {
		return 100 << 20
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		b.Fatalf("CBFS_E2E_MIB=%q", s)
	}
	return n << 20
}
