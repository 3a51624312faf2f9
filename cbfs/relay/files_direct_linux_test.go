package relay

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/cowboy-chain/cowboy/cbfs"
)

// TestDirectWriteRefused: a device that wants a larger alignment than
// directAlign opens the file with O_DIRECT but refuses the write (EINVAL;
// here an eventfd, which refuses any write that is not 8 bytes, stands in
// for the file): the shard is written through the page cache instead, no
// temporary file is left, and O_DIRECT is not tried again.
func TestDirectWriteRefused(t *testing.T) {
	vol, pid := cbfs.VolumeID{1}, cbfs.Tag{2}
	log := &openLog{}
	var f *shardFiles
	f = &shardFiles{root: t.TempDir(), open: func(name string, flag int, perm os.FileMode) (*os.File, error) {
		if flag&oDirect == 0 {
			return log.open(name, flag, perm)
		}
		log.mu.Lock()
		log.flags = append(log.flags, flag)
		log.mu.Unlock()
		fh, err := os.OpenFile(name, flag&^oDirect, perm) // the temp file exists, as with a real device
		if err != nil {
			return nil, err
		}
		fh.Close()
		fd, err := unix.Eventfd(0, unix.EFD_CLOEXEC)
		if err != nil {
			t.Skipf("eventfd: %v", err)
		}
		return os.NewFile(uintptr(fd), name), nil
	}}
	for i := range 2 {
		data := alignedBytes(2*directAlign+9, 3*directAlign, 0)
		pattern(data)
		want := bytes.Clone(data)
		h := cbfs.ShardHash{byte(i)}
		if err := f.write(vol, pid, h, data); err != nil {
			t.Fatal(err)
		}
		if got, err := os.ReadFile(f.path(vol, pid, h)); err != nil || !bytes.Equal(got, want) {
			t.Fatalf("shard %d: %v", i, err)
		}
	}
	if !f.buffered.Load() {
		t.Fatal("the refused write was not remembered")
	}
	if d, b := log.directOpens(); d != 1 || b != 2 {
		t.Fatalf("%d opens with O_DIRECT, %d without; want 1 and 2", d, b)
	}
	ents, err := os.ReadDir(f.pathDir(vol, pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), tmpPrefix) {
			t.Fatalf("temporary file %s left", e.Name())
		}
	}
	if len(ents) != 2 {
		t.Fatalf("%d files, want 2", len(ents))
	}
}
