package relay

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cowboy-chain/cowboy/cbfs"
	"github.com/cowboy-chain/cowboy/crypto"
)

// TestShardFilesAndSweep: shards are plain files under shards/, a restart
// keeps the acknowledged ones and sweeps what a crash can leave (a
// temporary file, a file whose meta was never committed), a challenge is
// answered from the file, and delete removes the files.
func TestShardFilesAndSweep(t *testing.T) {
	dir := t.TempDir()
	nodeKey, _ := crypto.GenerateKey()
	start := func() *Server {
		srv, err := New(Config{Dir: dir, Listen: "127.0.0.1:0", Key: nodeKey})
		if err != nil {
			t.Fatal(err)
		}
		if err := srv.Start(); err != nil {
			t.Fatal(err)
		}
		return srv
	}
	f := newFixture(t, Limits{})
	f.srv.Close()
	f.cli.Close()
	srv := start()
	cli, _ := NewClient(srv.Addr(), srv.ID(), f.owner)
	ctx := context.Background()
	m, shards := f.encodeFile(t, "a/b.bin", bytes.Repeat([]byte("cbfs "), 30000))
	a := f.auth(t, "a/b.bin")
	for k, s := range shards {
		if err := cli.PutShard(ctx, putReq(a, m, k[0], k[1]), s); err != nil {
			t.Fatal(err)
		}
	}
	pid := a.Tags[len(a.Tags)-1]
	h := m.Segments[0].Hashes[0]
	file := srv.files.path(f.vol.ID, pid, h)
	if b, err := os.ReadFile(file); err != nil || !bytes.Equal(b, shards[[2]int{0, 0}]) {
		t.Fatalf("shard file %s: %v", file, err)
	}
	// What a crash between the steps of a put leaves behind.
	pathDir := filepath.Dir(file)
	tmp := filepath.Join(pathDir, tmpPrefix+"0011223344556677")
	orphan := srv.files.path(f.vol.ID, pid, cbfs.ShardHash{7})
	otherDir := srv.files.pathDir(f.vol.ID, cbfs.Tag{9})
	if err := os.MkdirAll(otherDir, 0o700); err != nil {
		t.Fatal(err)
	}
	orphan2 := filepath.Join(otherDir, filepath.Base(orphan))
	for _, p := range []string{tmp, orphan, orphan2} {
		if err := os.WriteFile(p, []byte("half"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	usedBefore := srv.stat().Used
	cli.Close()
	srv.Close()

	srv = start()
	defer srv.Close()
	for _, p := range []string{tmp, orphan, orphan2, otherDir} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s survived the startup sweep: %v", p, err)
		}
	}
	if srv.stat().Used != usedBefore {
		t.Fatalf("usage %d after restart, %d before", srv.stat().Used, usedBefore)
	}
	cli, _ = NewClient(srv.Addr(), srv.ID(), f.owner)
	defer cli.Close()
	for k, s := range shards {
		got, err := cli.GetShard(ctx, a, m.Segments[k[0]].Hashes[k[1]])
		if err != nil || !bytes.Equal(got, s) {
			t.Fatalf("shard %v after restart: %v", k, err)
		}
	}
	resp, slice, err := cli.Challenge(ctx, &ChallengeReq{Auth: a, Hash: h, Offset: 100, Length: 1500})
	if err != nil {
		t.Fatal(err)
	}
	got, err := VerifyChallenge(m.Root(), h, 100, 1500, resp, slice)
	if err != nil || !bytes.Equal(got, shards[[2]int{0, 0}][100:1600]) {
		t.Fatalf("challenge from the file: %v", err)
	}
	if err := cli.Delete(ctx, a); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(pathDir); !os.IsNotExist(err) {
		t.Fatalf("delete left %s: %v", pathDir, err)
	}
	if srv.stat().Used != 0 {
		t.Fatalf("after delete %d bytes still counted", srv.stat().Used)
	}
}

// TestEnsureDirAndForget: ensureDir creates a directory and its parents
// and remembers each of them (so a put does not stat or fsync them again);
// forget drops a directory and everything below it, and nothing else (not
// a sibling whose name only starts the same).
func TestEnsureDirAndForget(t *testing.T) {
	root := t.TempDir()
	f := &shardFiles{root: root}
	dirs := []string{
		filepath.Join(root, "v", "p1"), filepath.Join(root, "v", "p2"),
		filepath.Join(root, "vv", "p3"), filepath.Join(root, "w", "p4"),
	}
	for _, d := range dirs {
		if err := f.ensureDir(d); err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
			t.Fatalf("%s not created: %v", d, err)
		}
	}
	known := func(d string) bool { _, ok := f.made.Load(d); return ok }
	for _, d := range append([]string{root, filepath.Join(root, "v"), filepath.Join(root, "vv"), filepath.Join(root, "w")}, dirs...) {
		if !known(d) {
			t.Errorf("ensureDir did not remember %s", d)
		}
	}
	f.forget(filepath.Join(root, "v"))
	for d, want := range map[string]bool{
		filepath.Join(root, "v"): false, dirs[0]: false, dirs[1]: false,
		root: true, filepath.Join(root, "vv"): true, dirs[2]: true, filepath.Join(root, "w"): true, dirs[3]: true,
	} {
		if known(d) != want {
			t.Errorf("after forget(v): %s remembered = %v, want %v", d, !want, want)
		}
	}
	// A directory under a file cannot be made: the error is returned and
	// nothing is remembered.
	file := filepath.Join(root, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := f.ensureDir(filepath.Join(file, "d")); err == nil || known(filepath.Join(file, "d")) {
		t.Fatalf("ensureDir under a file: %v", err)
	}
}

// TestReadEmptyLegacyShard: a shard stored in Pebble (before shard files)
// with no bytes reads back as no bytes, not as an error.
func TestReadEmptyLegacyShard(t *testing.T) {
	f := newFixture(t, Limits{})
	vol, pid, h := f.vol.ID, cbfs.Tag{1}, cbfs.ShardHash{2}
	if err := f.srv.db.Set(key(pfxShard, vol[:], pid[:], h[:]), []byte{}, pebble.Sync); err != nil {
		t.Fatal(err)
	}
	b, err := f.srv.readShard(vol, pid, h, nil)
	if err != nil || len(b) != 0 {
		t.Fatalf("empty legacy shard read = %d bytes, %v", len(b), err)
	}
	if _, err := f.srv.readShard(vol, pid, cbfs.ShardHash{3}, nil); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing shard: %v, want fs.ErrNotExist", err)
	}
}
