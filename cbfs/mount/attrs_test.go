package mount

import (
	"context"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/cbfs"
	"github.com/cowboy-chain/cowboy/cbfs/cluster"
	"github.com/cowboy-chain/cowboy/crypto"
)

// attrsScript makes directories with their own modes (mkdir -m, chmod),
// an empty directory, owners (chown of a file and a directory), access
// and modification times set apart (touch -a, touch -m), and a renamed
// directory that keeps its mode.
const attrsScript = `set -e
mkdir -m 700 private
mkdir -p empty/inner
chmod 750 empty
echo x > private/f
chown 1234:5678 private/f
chown 4321:8765 empty/inner
touch -a -d '2020-01-02 03:04:05 UTC' private/f
touch -m -d '2019-05-06 07:08:09 UTC' private/f
mkdir src
chmod 711 src
echo y > src/g
chown 42:43 src/g
mv src moved
touch -d '2022-02-03 04:05:06 UTC' empty/inner moved
`

// attrsStat prints what the volume must keep: modes, owners and the
// times set. It reads no directory (a local directory's access time
// moves when it is listed).
const attrsStat = `stat -c '%n %a %u %g' private private/f empty empty/inner moved moved/g
stat -c '%n %X %Y' private/f empty/inner moved`

// attrsList lists the tree, empty directories included.
const attrsList = `ls -R`

// TestAttributesMatchLocalDir runs attrsScript in a mount and in a local
// directory and compares modes, owners, times and the tree; then mounts
// the volume again and compares once more: directory modes and owners,
// empty directories, and file owners and access times come back from
// the relays. Owners need root to set (chown), as in a local directory;
// the test skips without it.
func TestAttributesMatchLocalDir(t *testing.T) {
	fuseUsable(t)
	if uid := currentUID(); uid != 0 {
		t.Skipf("skipping: chown to other owners needs root (uid %d)", uid)
	}
	owner, _ := crypto.GenerateKey()
	key, _ := cbfs.NewVolumeKey()
	vol := &cbfs.Volume{ID: cbfs.DeriveVolumeID(owner.Address(), "attrs"), Key: key}
	tok, err := cbfs.Grant(owner, "attrs", nil, cbfs.PermRead|cbfs.PermWrite, uint64(time.Now().Add(time.Hour).Unix()), owner.Address(), [8]byte{})
	if err != nil {
		t.Fatal(err)
	}
	infos, _ := relays(t, 3)
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

	local := t.TempDir()
	run(t, local, attrsScript)
	wantStat, wantList := run(t, local, attrsStat), run(t, local, attrsList)

	mnt, unmount := mountAt()
	run(t, mnt, attrsScript)
	steps := []struct{ name, script, want string }{
		{"attributes", attrsStat, wantStat},
		{"tree", attrsList, wantList},
	}
	for _, st := range steps {
		if got := run(t, mnt, st.script); got != st.want {
			t.Fatalf("%s in the mount\n--- mount\n%s--- local\n%s", st.name, got, st.want)
		}
	}
	unmount()
	mnt, unmount = mountAt()
	defer unmount()
	for _, st := range steps {
		if got := run(t, mnt, st.script); got != st.want {
			t.Fatalf("%s after remounting\n--- mount\n%s--- local\n%s", st.name, got, st.want)
		}
	}
}
