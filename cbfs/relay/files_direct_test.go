package relay

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"sync"
	"syscall"
	"testing"
	"unsafe"

	"github.com/cowboy-chain/cowboy/cbfs"
)

// alignedBytes returns n bytes whose first one is on a directAlign
// boundary, with capacity c (>= n) and no more; off moves the start by off
// bytes (an unaligned buffer when off is not a multiple of directAlign).
func alignedBytes(n, c, off int) []byte {
	b := make([]byte, c+off+2*directAlign)
	skip := (directAlign - int(uintptr(unsafe.Pointer(&b[0]))%directAlign)) % directAlign
	return b[skip+off : skip+off+n : skip+off+c]
}

// openLog is a shardFiles.open that records the flags of every open and
// refuses O_DIRECT the way a file system that does not support it does
// (after creating the file, as Linux may) when refuse says so for the
// flags.
type openLog struct {
	mu     sync.Mutex
	flags  []int
	refuse func(flag int) error
}

func (o *openLog) open(name string, flag int, perm os.FileMode) (*os.File, error) {
	o.mu.Lock()
	o.flags = append(o.flags, flag)
	o.mu.Unlock()
	if o.refuse != nil {
		if err := o.refuse(flag); err != nil {
			if flag&os.O_CREATE != 0 {
				fh, cerr := os.OpenFile(name, flag&^oDirect, perm)
				if cerr != nil {
					return nil, cerr
				}
				fh.Close()
			}
			return nil, &fs.PathError{Op: "open", Path: name, Err: err}
		}
	}
	return os.OpenFile(name, flag, perm)
}

// directOpens counts the recorded opens with and without O_DIRECT.
func (o *openLog) directOpens() (direct, buffered int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, f := range o.flags {
		if f&oDirect != 0 {
			direct++
		} else {
			buffered++
		}
	}
	return direct, buffered
}

func pattern(b []byte) {
	for i := range b {
		b[i] = byte(i*7 + i>>12)
	}
}

// TestDirectShardFiles: shard files are written and read back with
// O_DIRECT when the buffer allows it (aligned start, capacity up to the
// end of the last block), through the page cache when it does not, and
// the file holds exactly the shard's bytes either way: the last block's
// padding is cut off, whatever the spare capacity held.
func TestDirectShardFiles(t *testing.T) {
	if oDirect == 0 {
		t.Skip("no O_DIRECT on this platform: shard files are written through the page cache")
	}
	vol, pid := cbfs.VolumeID{1}, cbfs.Tag{2}
	cases := []struct {
		name        string
		n, cap, off int
		direct      bool
	}{
		{"empty", 0, 0, 0, true},
		{"one byte", 1, directAlign, 0, true},
		{"one block short", directAlign - 1, directAlign, 0, true},
		{"one block", directAlign, directAlign, 0, true},
		{"one block and a byte", directAlign + 1, 2 * directAlign, 0, true},
		{"a shard", 2<<20 + 20, 2<<20 + directAlign, 0, true},
		{"spare capacity", 5000, 3 * directAlign, 0, true},
		{"capacity short of the block", directAlign + 1, directAlign + 1, 0, false},
		{"capacity one short", 2*directAlign - 1, 2*directAlign - 1, 0, false},
		{"unaligned", 3 * directAlign, 4 * directAlign, 1, false},
		{"unaligned by 512", 3 * directAlign, 4 * directAlign, 512, false},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			log := &openLog{}
			f := &shardFiles{root: t.TempDir(), open: log.open}
			data := alignedBytes(tc.n, tc.cap, tc.off)
			pattern(data)
			spare := data[len(data):cap(data)]
			for j := range spare {
				spare[j] = 0xff
			}
			want := bytes.Clone(data)
			if got := directable(data); got != tc.direct {
				t.Fatalf("directable = %v, want %v", got, tc.direct)
			}
			h := cbfs.ShardHash{byte(i)}
			if err := f.write(vol, pid, h, data); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(f.path(vol, pid, h))
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("file holds %d bytes (%v), want the %d written", len(got), err, len(want))
			}
			d, b := log.directOpens()
			if (d == 1 && b == 0) != tc.direct || d+b != 1 {
				t.Fatalf("%d opens with O_DIRECT, %d without; direct %v", d, b, tc.direct)
			}
			if f.buffered.Load() {
				t.Fatal("O_DIRECT marked refused")
			}

			// Read back: with O_DIRECT into an aligned buffer of exactly the
			// blocks, which is kept.
			buf := alignedBytes(0, blockEnd(tc.n), 0)
			r, ok := f.readDirect(f.path(vol, pid, h), buf)
			if !ok || !bytes.Equal(r, want) {
				t.Fatalf("readDirect: ok %v, %d bytes", ok, len(r))
			}
			if tc.n > 0 && &r[0] != &buf[:1][0] {
				t.Fatal("readDirect did not read into the buffer it was given")
			}
			if d, b := log.directOpens(); d != 2-b || b > 1 {
				t.Fatalf("after the read: %d opens with O_DIRECT, %d without", d, b)
			}
			// Into a buffer that is not aligned: not directly.
			if tc.n > 0 {
				if _, ok := f.readDirect(f.path(vol, pid, h), alignedBytes(0, blockEnd(tc.n)+directAlign, 1)); ok {
					t.Fatal("readDirect into an unaligned buffer")
				}
			}
			// And through the server's read path, from a fresh buffer.
			s := &Server{files: f}
			r, err = s.readShard(vol, pid, h, nil)
			if err != nil || !bytes.Equal(r, want) {
				t.Fatalf("readShard: %v, %d bytes", err, len(r))
			}
		})
	}
}

// TestDirectRefused: a file system that refuses O_DIRECT (EINVAL, as tmpfs
// did before Linux 6.6) gets the shard written through the page cache, and
// O_DIRECT is not tried again, for writes or reads; other open errors are
// not taken for a refusal.
func TestDirectRefused(t *testing.T) {
	if oDirect == 0 {
		t.Skip("no O_DIRECT on this platform")
	}
	vol, pid := cbfs.VolumeID{1}, cbfs.Tag{2}
	data := func() []byte { // a fresh directable shard each time
		b := alignedBytes(3*directAlign+5, 4*directAlign, 0)
		pattern(b)
		return b
	}
	want := bytes.Clone(data())
	refuseDirect := func(flag int) error {
		if flag&oDirect != 0 {
			return syscall.EINVAL
		}
		return nil
	}

	log := &openLog{refuse: refuseDirect}
	f := &shardFiles{root: t.TempDir(), open: log.open}
	for i := range 3 {
		h := cbfs.ShardHash{byte(i)}
		if err := f.write(vol, pid, h, data()); err != nil {
			t.Fatal(err)
		}
		if got, err := os.ReadFile(f.path(vol, pid, h)); err != nil || !bytes.Equal(got, want) {
			t.Fatalf("shard %d: %v", i, err)
		}
	}
	if !f.buffered.Load() {
		t.Fatal("the refusal was not remembered")
	}
	if d, b := log.directOpens(); d != 1 || b != 3 {
		t.Fatalf("%d opens with O_DIRECT, %d without; want 1 and 3", d, b)
	}
	if _, ok := f.readDirect(f.path(vol, pid, cbfs.ShardHash{0}), alignedBytes(0, 4*directAlign, 0)); ok {
		t.Fatal("readDirect after O_DIRECT was refused")
	}
	if d, _ := log.directOpens(); d != 1 {
		t.Fatal("readDirect tried O_DIRECT again")
	}

	// A refusal seen first by a read.
	log2 := &openLog{refuse: refuseDirect}
	f2 := &shardFiles{root: f.root, open: log2.open}
	p := f.path(vol, pid, cbfs.ShardHash{1})
	if _, ok := f2.readDirect(p, alignedBytes(0, 4*directAlign, 0)); ok || !f2.buffered.Load() {
		t.Fatalf("read refused: ok %v, remembered %v", ok, f2.buffered.Load())
	}
	if r, err := (&Server{files: f2}).readShard(vol, pid, cbfs.ShardHash{1}, nil); err != nil || !bytes.Equal(r, want) {
		t.Fatalf("readShard after the refusal: %v", err)
	}

	// Not a refusal: a missing file, another error.
	f3 := &shardFiles{root: f.root}
	if _, ok := f3.readDirect(f.path(vol, pid, cbfs.ShardHash{9}), nil); ok || f3.buffered.Load() {
		t.Fatalf("missing file: ok %v, refusal remembered %v", ok, f3.buffered.Load())
	}
	denied := &openLog{refuse: func(flag int) error {
		if flag&oDirect != 0 {
			return syscall.EACCES
		}
		return nil
	}}
	f4 := &shardFiles{root: t.TempDir(), open: denied.open}
	if err := f4.write(vol, pid, cbfs.ShardHash{1}, data()); !errors.Is(err, syscall.EACCES) || f4.buffered.Load() {
		t.Fatalf("EACCES: %v, refusal remembered %v", err, f4.buffered.Load())
	}
}
