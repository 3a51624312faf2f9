package mount

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/cbfs"
	"github.com/cowboy-chain/cowboy/cbfs/cluster"
	"github.com/cowboy-chain/cowboy/cbfs/relay"
	"github.com/cowboy-chain/cowboy/crypto"
)

// posixScript runs in the mount and in a local directory; the two outputs
// must be the same. $BIG is a 3 MiB file of random bytes outside both.
const posixScript = `set -e
echo hello > a.txt
cat a.txt
echo world >> a.txt
cat a.txt
printf 'abc' > b.txt
cat b.txt a.txt > c.txt
cat c.txt
mkdir -p d/e
mv a.txt d/e/a.txt
ls
ls d/e
cat d/e/a.txt
cp "$BIG" big.bin
cmp "$BIG" big.bin && echo big same
wc -c < big.bin
cp big.bin d/big2.bin
mv d renamed
ls renamed
cmp "$BIG" renamed/big2.bin && echo renamed same
mv big.bin c.txt
cmp "$BIG" c.txt && echo replaced by rename
rm b.txt
touch empty
wc -c < empty
printf 'xyz' > t.txt
: > t.txt
wc -c < t.txt
echo again > t.txt
cat t.txt
ls -1
rmdir renamed 2>/dev/null || echo rmdir refused
rm renamed/e/a.txt
ls renamed/e
rmdir renamed/e
ls renamed
cat missing 2>/dev/null || echo no such file
cp "$BIG" part.bin
printf PATCH | dd of=part.bin bs=1 seek=1500000 conv=notrunc 2>/dev/null
cksum < part.bin
truncate -s 2500000 part.bin
cksum < part.bin
head -c 100000 "$BIG" >> part.bin
cksum < part.bin
truncate -s 2600000 part.bin
cksum < part.bin
printf 0123456789 > p.txt
chmod 640 p.txt
stat -c '%a %s' p.txt
printf AB | dd of=p.txt bs=1 seek=3 conv=notrunc 2>/dev/null
cat p.txt; echo
truncate -s 5 p.txt
cat p.txt; echo
echo tail >> p.txt
cat p.txt
touch -d '2021-03-04 05:06:07 UTC' p.txt part.bin
chmod 600 part.bin
stat -c '%n %a %s %Y' p.txt part.bin
`

// attrScript shows what the volume keeps besides contents: every file's
// permission bits and size, and the times set explicitly by posixScript.
const attrScript = `find . -type f | sort | xargs stat -c '%n %a %s'
stat -c '%n %Y' p.txt part.bin`

// recordingStore logs each put and update, with how many segments an
// update sealed again: the test checks that a write rewrites only the
// segments it touched.
type recordingStore struct {
	*ClusterStore
	log *[]string
}

func (s *recordingStore) Put(ctx context.Context, path string, r io.Reader, at cluster.Attrs) (*cbfs.Manifest, error) {
	m, err := s.ClusterStore.Put(ctx, path, r, at)
	if err == nil {
		*s.log = append(*s.log, "put "+path)
	}
	return m, err
}

func (s *recordingStore) Update(ctx context.Context, old *cbfs.Manifest, r io.ReaderAt, size uint64, changed func(int) bool, at cluster.Attrs) (*cbfs.Manifest, error) {
	m, err := s.ClusterStore.Update(ctx, old, r, size, changed, at)
	if err == nil {
		n := 0
		for i, seg := range m.Segments {
			if i >= len(old.Segments) || seg.Gen != old.Segments[i].Gen {
				n++
			}
		}
		*s.log = append(*s.log, fmt.Sprintf("update %s: %d of %d segments rewritten", m.Path, n, len(m.Segments)))
	}
	return m, err
}

// renameScript renames stored files (one over another, and a directory);
// renames move metadata only, so no shard may be uploaded.
const renameScript = `mv c.txt moved.bin
mv renamed/big2.bin p.txt
mv renamed gone
ls -R`

// listScript shows every file and its checksum: what a second mount must
// find after the first is gone.
const listScript = `find . -type f | sort | xargs cksum`

func fuseUsable(t *testing.T) {
	t.Helper()
	f, err := os.OpenFile("/dev/fuse", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("skipping the FUSE mount test: /dev/fuse cannot be opened (%v); install fuse3 and run where /dev/fuse works", err)
	}
	f.Close()
	if _, err := exec.LookPath("fusermount3"); err != nil {
		if _, err := exec.LookPath("fusermount"); err != nil {
			t.Skip("skipping the FUSE mount test: neither fusermount3 nor fusermount is installed (apt-get install fuse3)")
		}
	}
}

// run runs script with sh in dir. The shell changes into dir itself,
// after exec. With cmd.Dir the forked child chdirs into the mount before
// exec, while this process, which serves the mount, is still inside the
// fork (the parent thread waits for the child's exec): under load the
// test hung 10 minutes with the child stuck in chdir waiting for a FUSE
// getattr this process never answered (kernel stack: fuse_do_getattr
// from __x64_sys_chdir), most likely because the runtime stopped for a
// garbage collection needs the forking thread. The orphaned child then
// kept the dead mount busy.
func run(t *testing.T, dir, script string, env ...string) string {
	t.Helper()
	cmd := exec.Command("sh", "-c", "cd \"$CBFS_TEST_DIR\" || exit 97\n"+script)
	cmd.Env = append(append(os.Environ(), env...), "CBFS_TEST_DIR="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("script in %s: %v\n%s", dir, err, out)
	}
	return string(out)
}

func relays(t *testing.T, n int) ([]cluster.RelayInfo, []*relay.Server) {
	var infos []cluster.RelayInfo
	var srvs []*relay.Server
	for i := 0; i < n; i++ {
		k, _ := crypto.GenerateKey()
		srv, err := relay.New(relay.Config{Dir: t.TempDir(), Listen: "127.0.0.1:0", Key: k})
		if err != nil {
			t.Fatal(err)
		}
		if err := srv.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { srv.Close() })
		infos = append(infos, cluster.RelayInfo{ID: srv.ID(), Addr: srv.Addr()})
		srvs = append(srvs, srv)
	}
	return infos, srvs
}

// TestPOSIXScriptMatchesLocalDir mounts a volume on three in-process
// relays (K=2, M=1, 1 MiB segments, so the big file spans segments), runs
// posixScript in it and in a plain directory, and compares. Then it
// unmounts, mounts the volume again with an empty cache, and checks that
// every file and its contents came back from the relays. Last it runs
// renameScript, checks that no relay received a shard, and mounts once
// more to find the files under their new names.
func TestPOSIXScriptMatchesLocalDir(t *testing.T) {
	fuseUsable(t)
	owner, _ := crypto.GenerateKey()
	key, _ := cbfs.NewVolumeKey()
	vol := &cbfs.Volume{ID: cbfs.DeriveVolumeID(owner.Address(), "m"), Key: key}
	tok, err := cbfs.Grant(owner, "m", nil, cbfs.PermRead|cbfs.PermWrite, uint64(time.Now().Add(time.Hour).Unix()), owner.Address(), [8]byte{})
	if err != nil {
		t.Fatal(err)
	}
	infos, srvs := relays(t, 3)
	var ops []string
	mountAt := func() (string, func()) {
		cl, err := cluster.New(infos, owner, tok)
		if err != nil {
			t.Fatal(err)
		}
		f := New(&recordingStore{ClusterStore: &ClusterStore{Cluster: cl, Volume: vol, Params: cbfs.Params{K: 2, M: 1, SegmentSize: 1 << 20}}, log: &ops}, t.TempDir())
		f.Logf = t.Logf
		dir := t.TempDir()
		srv, err := f.Mount(context.Background(), dir)
		if err != nil {
			t.Fatalf("mount: %v", err)
		}
		return dir, func() {
			if err := srv.Unmount(); err != nil {
				t.Errorf("unmount: %v", err)
			}
			cl.Close()
		}
	}

	big := make([]byte, 3<<20+123)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range big {
		big[i] = byte(r.Uint32())
	}
	bigPath := filepath.Join(t.TempDir(), "big")
	if err := os.WriteFile(bigPath, big, 0o600); err != nil {
		t.Fatal(err)
	}

	local := t.TempDir()
	want := run(t, local, posixScript, "BIG="+bigPath)
	mnt, unmount := mountAt()
	got := run(t, mnt, posixScript, "BIG="+bigPath)
	if got != want {
		t.Fatalf("the mount differs from a local directory\n--- mount\n%s--- local\n%s", got, want)
	}
	unmount()
	// Writes to a stored file rewrote only the segments they touched (1 MiB
	// segments; part.bin is 3 MiB + 123 bytes, then 2,500,000 bytes, ...).
	wantOps := []string{
		"put part.bin",
		"update part.bin: 1 of 4 segments rewritten", // dd into segment 1
		"update part.bin: 1 of 3 segments rewritten", // truncate inside segment 2
		"update part.bin: 1 of 3 segments rewritten", // append inside segment 2
		"update part.bin: 1 of 3 segments rewritten", // truncate up: zeros in segment 2
		// The shell opens p.txt, dup2s it to stdout and closes the first
		// descriptor: that close stores the empty new file, the last one
		// its contents.
		"put p.txt",
		"update p.txt: 1 of 1 segments rewritten",
		"update p.txt: 0 of 1 segments rewritten", // chmod: attributes only
		"update p.txt: 1 of 1 segments rewritten", // dd
		"update p.txt: 1 of 1 segments rewritten", // truncate
		"update p.txt: 1 of 1 segments rewritten", // append
		"update p.txt: 0 of 1 segments rewritten", // touch -d
		"update part.bin: 0 of 3 segments rewritten",
		"update part.bin: 0 of 3 segments rewritten", // chmod
	}
	var partOps []string
	for _, o := range ops {
		if strings.Contains(o, "part.bin") || strings.Contains(o, "p.txt") {
			partOps = append(partOps, o)
		}
	}
	if strings.Join(partOps, "\n") != strings.Join(wantOps, "\n") {
		t.Fatalf("store operations\n--- got\n%s\n--- want\n%s", strings.Join(partOps, "\n"), strings.Join(wantOps, "\n"))
	}

	mnt, unmount = mountAt()
	defer func() { unmount() }() // the last mount's
	wantList := run(t, local, listScript)
	if got := run(t, mnt, listScript); got != wantList {
		t.Fatalf("after remounting\n--- mount\n%s--- local\n%s", got, wantList)
	}
	wantAttrs := run(t, local, attrScript)
	if got := run(t, mnt, attrScript); got != wantAttrs {
		t.Fatalf("attributes after remounting\n--- mount\n%s--- local\n%s", got, wantAttrs)
	}
	if b, err := os.ReadFile(filepath.Join(mnt, "c.txt")); err != nil || !bytes.Equal(b, big) {
		t.Fatalf("c.txt after remount: %d bytes, %v", len(b), err)
	}

	uploads := func() int64 {
		var n int64
		for _, s := range srvs {
			n += s.PutShards.Load()
		}
		return n
	}
	before := uploads()
	wantRename := run(t, local, renameScript)
	if got := run(t, mnt, renameScript); got != wantRename {
		t.Fatalf("renames\n--- mount\n%s--- local\n%s", got, wantRename)
	}
	if n := uploads() - before; n != 0 {
		t.Fatalf("renames uploaded %d shards", n)
	}
	unmount()
	mnt, unmount = mountAt()
	wantList = run(t, local, listScript)
	if got := run(t, mnt, listScript); got != wantList {
		t.Fatalf("after renaming and remounting\n--- mount\n%s--- local\n%s", got, wantList)
	}
	if b, err := os.ReadFile(filepath.Join(mnt, "moved.bin")); err != nil || !bytes.Equal(b, big) {
		t.Fatalf("moved.bin after remount: %d bytes, %v", len(b), err)
	}
}
