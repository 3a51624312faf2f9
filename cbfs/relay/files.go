package relay

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"unsafe"

	"github.com/cockroachdb/pebble/v2"

	"github.com/cowboy-chain/cowboy/cbfs"
)

// Shard bytes live in plain files, one per shard, under
// DIR/shards/<volume>/<path id>/<shard hash> (hex); Pebble keeps only the
// index (the shard's meta: proof and Bao outboard), usage and the rest.
// Before files, shards were Pebble values: every 2 MiB shard was copied
// into a batch, the WAL and the memtable, and then compacted (the largest
// cost of a put in docs/benchmarks.md).
//
// Crash safety (a shard the relay acknowledged survives kill -9 or a power
// cut): the bytes are written to a temporary file in the shard's
// directory, fsynced, renamed to their final name, and the directory is
// fsynced; only then is the meta committed to Pebble and synced, and only
// then is the put acknowledged. A crash before the meta commit leaves at
// most a file with no meta, which has() does not count and the startup
// sweep removes; a temporary file left by a crash is removed the same way.
// A deferred put (barrier.go) skips both fsyncs and the meta; the barrier
// fsyncs the file and the directory before it commits the meta, so a
// shard with meta is durable either way.

// shardsDirName is the shard directory inside the relay's store directory
// (Pebble ignores names it did not create).
const shardsDirName = "shards"

// tmpPrefix marks a shard file being written.
const tmpPrefix = ".tmp-"

type shardFiles struct {
	root string
	// made holds directories known to exist durably (their entry in the
	// parent fsynced), so a put does not stat or fsync parents again.
	made sync.Map
	// buffered is set once the file system refused O_DIRECT (tmpfs on
	// older kernels, some FUSE file systems): writes go through the page
	// cache from then on.
	buffered atomic.Bool
	// open is os.OpenFile for shard files, or a test's stand-in (which
	// sees the flags, and can refuse O_DIRECT as some file systems do).
	open func(name string, flag int, perm os.FileMode) (*os.File, error)
}

// openFile opens a shard file through f.open.
func (f *shardFiles) openFile(name string, flag int) (*os.File, error) {
	if f.open != nil {
		return f.open(name, flag, 0o600)
	}
	return os.OpenFile(name, flag, 0o600)
}

func (f *shardFiles) volDir(vol cbfs.VolumeID) string {
	return filepath.Join(f.root, hex.EncodeToString(vol[:]))
}

func (f *shardFiles) pathDir(vol cbfs.VolumeID, pid cbfs.Tag) string {
	return filepath.Join(f.volDir(vol), hex.EncodeToString(pid[:]))
}

func (f *shardFiles) path(vol cbfs.VolumeID, pid cbfs.Tag, h cbfs.ShardHash) string {
	return filepath.Join(f.pathDir(vol, pid), hex.EncodeToString(h[:]))
}

// syncDir fsyncs a directory so the entries created or renamed in it
// survive a crash.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	return errors.Join(d.Sync(), d.Close())
}

// ensureDir creates dir and its parents up to f.root, fsyncing each
// parent whose entries changed.
func (f *shardFiles) ensureDir(dir string) error {
	if _, ok := f.made.Load(dir); ok {
		return nil
	}
	if dir != f.root {
		if err := f.ensureDir(filepath.Dir(dir)); err != nil {
			return err
		}
	}
	err := os.Mkdir(dir, 0o700)
	switch {
	case err == nil:
		if err := syncDir(filepath.Dir(dir)); err != nil {
			return err
		}
	case errors.Is(err, fs.ErrExist):
	default:
		return err
	}
	f.made.Store(dir, true)
	return nil
}

// forget drops the cached existence of dir and everything below it
// (after a delete removed them).
func (f *shardFiles) forget(dir string) {
	f.made.Range(func(k, _ any) bool {
		if p := k.(string); p == dir || strings.HasPrefix(p, dir+string(filepath.Separator)) {
			f.made.Delete(k)
		}
		return true
	})
}

// directAlign is what O_DIRECT asks of a write's buffer address, length
// and file offset: a multiple of the device's logical block size, which
// 4 KiB covers.
const directAlign = 4096

// write stores data durably at the shard's path: temp file, fsync,
// rename, fsync of the directory.
//
// Where the platform and file system allow it, the temp file is written
// with O_DIRECT: the disk reads the shard from the request's buffer,
// instead of the kernel first copying it into the page cache (that copy was
// the relays' largest CPU cost of a put, docs/benchmarks.md, ninth
// session). The fsync stays: O_DIRECT does not flush the device's cache or
// the file's size and extents. The shard is then not in the page cache; a
// get reads it from the disk.
func (f *shardFiles) write(vol cbfs.VolumeID, pid cbfs.Tag, h cbfs.ShardHash, data []byte) error {
	return f.store(vol, pid, h, data, true)
}

// store is write, or with durable false the same steps without either
// fsync: the shard's file is in place and whole as far as the kernel is
// concerned (a get may read it), but a crash of the machine can lose or
// truncate it. syncShards (barrier.go) makes such files durable before
// their index entries are committed, so a shard with an index entry is
// durable either way.
func (f *shardFiles) store(vol cbfs.VolumeID, pid cbfs.Tag, h cbfs.ShardHash, data []byte, durable bool) error {
	dir := f.pathDir(vol, pid)
	if err := f.ensureDir(dir); err != nil {
		return fmt.Errorf("relay: shard directory: %w", err)
	}
	var rnd [8]byte
	if _, err := rand.Read(rnd[:]); err != nil {
		return err
	}
	tmp := filepath.Join(dir, tmpPrefix+hex.EncodeToString(rnd[:]))
	fh, direct, err := f.create(tmp, directable(data))
	if err != nil {
		return fmt.Errorf("relay: create shard file: %w", err)
	}
	if direct {
		err = writeDirect(fh, data)
		if errors.Is(err, syscall.EINVAL) {
			// The device wants a larger alignment than directAlign: this
			// shard and every later one go through the page cache.
			f.buffered.Store(true)
			fh.Close()
			os.Remove(tmp)
			return f.store(vol, pid, h, data, durable)
		}
	} else {
		_, err = fh.Write(data)
	}
	if err == nil && durable {
		err = fh.Sync()
	}
	err = errors.Join(err, fh.Close())
	if err == nil {
		err = os.Rename(tmp, f.path(vol, pid, h))
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("relay: write shard file: %w", err)
	}
	if !durable {
		return nil
	}
	if err := syncDir(dir); err != nil {
		return fmt.Errorf("relay: sync shard directory: %w", err)
	}
	return nil
}

// syncFile fsyncs the file at p: its bytes, size and extents.
func syncFile(p string) error {
	fh, err := os.Open(p)
	if err != nil {
		return err
	}
	return errors.Join(fh.Sync(), fh.Close())
}

// directable says whether data can be written with O_DIRECT as it is: it
// starts at an aligned address and its capacity reaches the end of its
// last block (the relay's shard buffers are large Go allocations, which
// start on a page and end on one).
func directable(data []byte) bool {
	return oDirect != 0 && uintptr(unsafe.Pointer(unsafe.SliceData(data)))%directAlign == 0 &&
		cap(data) >= blockEnd(len(data))
}

// blockEnd rounds n up to a multiple of directAlign.
func blockEnd(n int) int { return (n + directAlign - 1) &^ (directAlign - 1) }

// create makes the temp file tmp (which must not exist), with O_DIRECT if
// direct and the file system has not refused it; the result says which.
func (f *shardFiles) create(tmp string, direct bool) (*os.File, bool, error) {
	const flags = os.O_WRONLY | os.O_CREATE | os.O_EXCL
	if direct && !f.buffered.Load() {
		fh, err := f.openFile(tmp, flags|oDirect)
		if err == nil {
			return fh, true, nil
		}
		if !errors.Is(err, syscall.EINVAL) {
			return nil, false, err
		}
		// Refused: the file may have been created before the flag was
		// checked.
		f.buffered.Store(true)
		if err := os.Remove(tmp); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, false, err
		}
	}
	fh, err := f.openFile(tmp, flags)
	return fh, false, err
}

// writeDirect writes data (directable) to the empty file fh opened with
// O_DIRECT in whole blocks, the last one padded with zeros in data's spare
// capacity, and then cuts the file to len(data).
func writeDirect(fh *os.File, data []byte) error {
	blocks := data[:blockEnd(len(data))]
	clear(blocks[len(data):])
	if _, err := fh.Write(blocks); err != nil {
		return err
	}
	return fh.Truncate(int64(len(data)))
}

// exists says whether the shard's file is there.
func (f *shardFiles) exists(vol cbfs.VolumeID, pid cbfs.Tag, h cbfs.ShardHash) bool {
	_, err := os.Stat(f.path(vol, pid, h))
	return err == nil
}

// shared says whether the shard's file is also linked under another
// path (a rename in progress, or one that has not deleted the old path
// yet): its bytes are on disk, and in the usage, once.
func (f *shardFiles) shared(vol cbfs.VolumeID, pid cbfs.Tag, h cbfs.ShardHash) bool {
	return fileLinks(f.path(vol, pid, h)) > 1
}

// removePath deletes every shard file of one path.
func (f *shardFiles) removePath(vol cbfs.VolumeID, pid cbfs.Tag) error {
	dir := f.pathDir(vol, pid)
	f.forget(dir)
	return os.RemoveAll(dir)
}

// removeVolume deletes every shard file of a volume.
func (f *shardFiles) removeVolume(vol cbfs.VolumeID) error {
	dir := f.volDir(vol)
	f.forget(dir)
	return os.RemoveAll(dir)
}

// shardReader is a held shard, from its file or (a store written before
// shard files) from Pebble.
type shardReader interface {
	io.ReaderAt
	io.Closer
	Size() int64
}

type fileShard struct {
	*os.File
	size int64
}

func (s fileShard) Size() int64 { return s.size }

type memShard struct {
	*bytes.Reader
}

func (memShard) Close() error { return nil }

// openShard opens a held shard's bytes; fs.ErrNotExist if there are none.
func (s *Server) openShard(vol cbfs.VolumeID, pid cbfs.Tag, h cbfs.ShardHash) (shardReader, error) {
	fh, err := os.Open(s.files.path(vol, pid, h))
	if err == nil {
		st, err := fh.Stat()
		if err != nil {
			fh.Close()
			return nil, err
		}
		return fileShard{fh, st.Size()}, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	// A store written before shard files keeps shard bytes in Pebble.
	v, closer, err := s.db.Get(key(pfxShard, vol[:], pid[:], h[:]))
	if errors.Is(err, pebble.ErrNotFound) {
		return nil, fs.ErrNotExist
	}
	if err != nil {
		return nil, err
	}
	b := bytes.Clone(v)
	closer.Close()
	return memShard{bytes.NewReader(b)}, nil
}

// readShard returns a held shard's bytes, in buf if its capacity allows;
// fs.ErrNotExist if there are none.
func (s *Server) readShard(vol cbfs.VolumeID, pid cbfs.Tag, h cbfs.ShardHash, buf []byte) ([]byte, error) {
	if b, ok := s.files.readDirect(s.files.path(vol, pid, h), buf); ok {
		return b, nil
	}
	r, err := s.openShard(vol, pid, h)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	b := slices.Grow(buf[:0], int(r.Size()))[:r.Size()]
	if _, err := r.ReadAt(b, 0); err != nil && !(errors.Is(err, io.EOF) && len(b) == 0) {
		return nil, err
	}
	return b, nil
}

// readDirect reads the whole file at p with O_DIRECT, into buf if its
// capacity allows: the disk writes the bytes into the buffer, with no copy
// through the page cache (shards written with O_DIRECT are not there
// anyway). ok is false when it cannot (no such file, O_DIRECT refused, an
// unaligned buffer, a short read); the caller then reads the file as
// usual, which also reports a missing one.
func (f *shardFiles) readDirect(p string, buf []byte) (b []byte, ok bool) {
	if oDirect == 0 || f.buffered.Load() {
		return nil, false
	}
	fh, err := f.openFile(p, os.O_RDONLY|oDirect)
	if err != nil {
		if errors.Is(err, syscall.EINVAL) {
			f.buffered.Store(true)
		}
		return nil, false
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return nil, false
	}
	size := int(st.Size())
	// O_DIRECT reads whole blocks: room for the last one, which the read
	// fills only up to the end of the file.
	b = slices.Grow(buf[:0], blockEnd(size))
	if !directable(b) {
		return nil, false
	}
	k, err := fh.Read(b[:blockEnd(size)])
	if err != nil || k != size {
		return nil, false
	}
	return b[:size], true
}

// sweep removes what a crash can leave in the shard directory: temporary
// files, and shard files whose meta was never committed (or whose path or
// volume was deleted before the files went). Run at startup, before
// serving.
func (s *Server) sweep() error {
	vols, err := os.ReadDir(s.files.root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("relay: sweep shards: %w", err)
	}
	for _, vd := range vols {
		var vol cbfs.VolumeID
		if b, err := hex.DecodeString(vd.Name()); err != nil || len(b) != len(vol) || !vd.IsDir() {
			continue // not ours: leave it
		}
		hex.Decode(vol[:], []byte(vd.Name()))
		paths, err := os.ReadDir(filepath.Join(s.files.root, vd.Name()))
		if err != nil {
			return fmt.Errorf("relay: sweep shards: %w", err)
		}
		for _, pd := range paths {
			var pid cbfs.Tag
			if b, err := hex.DecodeString(pd.Name()); err != nil || len(b) != len(pid) || !pd.IsDir() {
				continue
			}
			hex.Decode(pid[:], []byte(pd.Name()))
			dir := s.files.pathDir(vol, pid)
			ents, err := os.ReadDir(dir)
			if err != nil {
				return fmt.Errorf("relay: sweep shards: %w", err)
			}
			keptAny := false
			for _, e := range ents {
				var h cbfs.ShardHash
				keep := false
				if b, err := hex.DecodeString(e.Name()); err == nil && len(b) == len(h) {
					copy(h[:], b)
					_, closer, err := s.db.Get(key(pfxMeta, vol[:], pid[:], h[:]))
					if err == nil {
						closer.Close()
						keep = true
					} else if !errors.Is(err, pebble.ErrNotFound) {
						return fmt.Errorf("relay: sweep shards: %w", err)
					}
				} else if !strings.HasPrefix(e.Name(), tmpPrefix) {
					keep = true // not ours
				}
				if keep {
					keptAny = true
					continue
				}
				if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
					return fmt.Errorf("relay: sweep shards: %w", err)
				}
			}
			if !keptAny {
				os.Remove(dir)
			}
		}
	}
	return nil
}
