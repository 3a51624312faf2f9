package mount

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
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
`

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

func run(t *testing.T, dir, script string, env ...string) string {
	t.Helper()
	cmd := exec.Command("sh", "-c", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("script in %s: %v\n%s", dir, err, out)
	}
	return string(out)
}

func relays(t *testing.T, n int) []cluster.RelayInfo {
	var infos []cluster.RelayInfo
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
	}
	return infos
}

// TestPOSIXScriptMatchesLocalDir mounts a volume on three in-process
// relays (K=2, M=1, 1 MiB segments, so the big file spans segments), runs
// posixScript in it and in a plain directory, and compares. Then it
// unmounts, mounts the volume again with an empty cache, and checks that
// every file and its contents came back from the relays.
func TestPOSIXScriptMatchesLocalDir(t *testing.T) {
	fuseUsable(t)
	owner, _ := crypto.GenerateKey()
	key, _ := cbfs.NewVolumeKey()
	vol := &cbfs.Volume{ID: cbfs.DeriveVolumeID(owner.Address(), "m"), Key: key}
	tok, err := cbfs.Grant(owner, "m", nil, cbfs.PermRead|cbfs.PermWrite, uint64(time.Now().Add(time.Hour).Unix()), owner.Address(), [8]byte{})
	if err != nil {
		t.Fatal(err)
	}
	infos := relays(t, 3)
	mountAt := func() (string, func()) {
		cl, err := cluster.New(infos, owner, tok)
		if err != nil {
			t.Fatal(err)
		}
		f := New(&ClusterStore{Cluster: cl, Volume: vol, Params: cbfs.Params{K: 2, M: 1, SegmentSize: 1 << 20}}, t.TempDir())
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

	mnt, unmount = mountAt()
	defer unmount()
	wantList := run(t, local, listScript)
	if got := run(t, mnt, listScript); got != wantList {
		t.Fatalf("after remounting\n--- mount\n%s--- local\n%s", got, wantList)
	}
	if b, err := os.ReadFile(filepath.Join(mnt, "c.txt")); err != nil || !bytes.Equal(b, big) {
		t.Fatalf("c.txt after remount: %d bytes, %v", len(b), err)
	}
}
