package main

import (
	"context"
	"encoding/hex"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/cbfs"
	"github.com/cowboy-chain/cowboy/cbfs/cluster"
	"github.com/cowboy-chain/cowboy/crypto"
)

// TestAcknowledgedShardsSurviveKill9: a put returns once every relay
// acknowledged its shards; SIGKILL every relay right then, restart them on
// the same homes, and every shard is still there (repair finds no segment
// below K+M, an audit passes) and the file reads back. Then a shard file
// is altered on one relay's disk: the read detects it, does not use it,
// and still returns the file intact.
func TestAcknowledgedShardsSurviveKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs relay processes")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "cbfs-relay")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	homes := make([]string, 6)
	procs := make([]*relayProc, 6)
	for i := range homes {
		homes[i] = filepath.Join(dir, "relay"+strconv.Itoa(i))
		procs[i] = startRelay(t, bin, homes[i])
	}
	infos := func() []cluster.RelayInfo {
		var out []cluster.RelayInfo
		for _, p := range procs {
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
	cl, err := cluster.New(infos(), owner, tok)
	if err != nil {
		t.Fatal(err)
	}
	const size = 12 << 20
	p := cbfs.Params{K: 4, M: 2, SegmentSize: 2 << 20}
	m, err := cl.Put(ctx, vol, "crash/a.bin", p, &prng{rand.New(rand.NewPCG(5, 6)), size}, nil)
	if err != nil {
		t.Fatal(err)
	}
	cl.Close()
	for _, pr := range procs {
		pr.kill9(t)
	}
	for i := range procs {
		procs[i] = startRelay(t, bin, homes[i])
	}
	cl, err = cluster.New(infos(), owner, tok)
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	rep, err := cl.Repair(ctx, vol, "crash/a.bin", int(p.M))
	if err != nil || rep.Degraded != 0 || rep.Segments != len(m.Segments) {
		t.Fatalf("after kill -9 of every relay: %+v %v (an acknowledged shard was lost)", rep, err)
	}
	if bad, err := cl.Audit(ctx, vol, "crash/a.bin", 7); err != nil || len(bad) != 0 {
		t.Fatalf("audit after kill -9: %v %v", bad, err)
	}
	want := hashOf(t, &prng{rand.New(rand.NewPCG(5, 6)), size})
	read := func() [32]byte {
		pr, pw := io.Pipe()
		go func() {
			_, err := cl.Get(ctx, vol, "crash/a.bin", pw, nil)
			pw.CloseWithError(err)
		}()
		return hashOf(t, pr)
	}
	if read() != want {
		t.Fatal("read back after kill -9 differs")
	}

	// Alter data shard 0 of segment 0 on its relay's disk: it is fetched
	// first, fails its manifest hash, and a parity shard takes its place.
	tags, _ := vol.PathTags("crash/a.bin")
	pid := tags[len(tags)-1]
	seg := m.Segments[0]
	var file string
	for i, pr := range procs {
		if pr.info.ID == seg.Relays[0] {
			file = filepath.Join(homes[i], "db", "shards", hex.EncodeToString(vol.ID[:]), hex.EncodeToString(pid[:]), hex.EncodeToString(seg.Hashes[0][:]))
		}
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("shard file of segment 0: %v", err)
	}
	b[len(b)/2] ^= 0x40
	if err := os.WriteFile(file, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if read() != want {
		t.Fatal("a tampered shard was used")
	}
}
