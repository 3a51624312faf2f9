// Package mount serves a CBFS volume as a FUSE file system (go-fuse), so
// ordinary tools (ls, cat, cp, editors) read and write it.
//
// A file opened is fetched once into a local cache file; reads and writes
// go to that file. When a written file is closed (flush) or fsynced, only
// the segments it changed (by writes, truncation or appending) are sealed
// again and uploaded (cluster Update); the others keep their shards. A
// file the mount created is put whole. Permission bits, owner, and the
// modification and access times are kept in the file's manifest (chmod,
// chown, touch, utimes by path are stored at once; a write sets the
// modification time and is stored with its close; reads do not move the
// access time, as under noatime). A directory made with mkdir, and any
// directory that is chmod-ed, chown-ed or touched, has a manifest of its
// own (cluster PutDir) with the same attributes, so empty directories
// and directory modes survive a remount; other directories are implied
// by the paths of their files. The kernel checks permissions against
// these modes and owners (default_permissions). Rename moves only metadata: the
// relays link the shards under the new path, the manifest is sealed again
// for it and the old path is deleted (cluster Rename); no shard is
// uploaded.
package mount

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/hanwen/go-fuse/v2/fs"
	"github.com/hanwen/go-fuse/v2/fuse"

	"github.com/cowboy-chain/cowboy/cbfs"
	"github.com/cowboy-chain/cowboy/cbfs/cluster"
)

// Entry is one file (or directory manifest) a Store lists.
type Entry struct {
	Path  string
	Size  uint64
	Attrs cluster.Attrs
	Dir   bool
}

// Store is the volume the mount shows; cluster.Cluster with a volume and
// its parameters is the real one (see ClusterStore). A file's manifest is
// what an in-place Update starts from.
type Store interface {
	List(ctx context.Context) ([]Entry, error)
	Stat(ctx context.Context, path string) (*cbfs.Manifest, error)
	Get(ctx context.Context, path string, w io.Writer) (*cbfs.Manifest, error)
	Put(ctx context.Context, path string, r io.Reader, at cluster.Attrs) (*cbfs.Manifest, error)
	Update(ctx context.Context, old *cbfs.Manifest, r io.ReaderAt, size uint64, changed func(seg int) bool, at cluster.Attrs) (*cbfs.Manifest, error)
	Delete(ctx context.Context, path string) error
	// Rename moves a stored file to another path (replacing any file
	// there) without uploading its contents again.
	Rename(ctx context.Context, from, to string) (*cbfs.Manifest, error)
	// PutDir stores a directory's attributes (cluster PutDir).
	PutDir(ctx context.Context, path string, at cluster.Attrs) (*cbfs.Manifest, error)
}

// defaultMode and defaultDirMode are the permission bits of a file and a
// directory whose manifest records none.
const (
	defaultMode    = 0o644
	defaultDirMode = 0o755
)

// meta is what the mount keeps of a file or directory besides its
// contents; it goes into the manifest as cluster.Attrs.
type meta struct {
	mode         uint32 // permission bits
	mtime, atime int64  // unix nanoseconds
	uid, gid     uint32
}

func (m *meta) attrs() cluster.Attrs {
	return cluster.Attrs{Mode: m.mode, ModTime: m.mtime, ATime: m.atime, Owner: &cbfs.Owner{UID: m.uid, GID: m.gid}}
}

// fill writes the attributes into out; typ is S_IFREG or S_IFDIR.
func (m *meta) fill(out *fuse.Attr, typ uint32) {
	out.Mode = typ | m.mode
	out.Uid, out.Gid = m.uid, m.gid
	a, t := time.Unix(0, m.atime), time.Unix(0, m.mtime)
	out.SetTimes(&a, &t, &t)
}

// setattr applies chmod, chown and utimes from in and says whether any
// of them was asked.
func (m *meta) setattr(in *fuse.SetAttrIn) bool {
	changed := false
	if mode, ok := in.GetMode(); ok {
		m.mode, changed = mode&0o7777, true
	}
	if uid, ok := in.GetUID(); ok {
		m.uid, changed = uid, true
	}
	if gid, ok := in.GetGID(); ok {
		m.gid, changed = gid, true
	}
	if mt, ok := in.GetMTime(); ok {
		m.mtime, changed = mt.UnixNano(), true
	}
	if at, ok := in.GetATime(); ok {
		m.atime, changed = at.UnixNano(), true
	}
	return changed
}

// metaOf is the attributes a manifest records, with the defaults for
// those it does not: def permission bits, the mount time, the access
// time equal to the modification time, and the mounting user as owner.
func (f *FS) metaOf(at cluster.Attrs, def uint32) meta {
	m := meta{mode: at.Mode, mtime: at.ModTime, atime: at.ATime, uid: f.uid, gid: f.gid}
	if m.mode == 0 {
		m.mode = def
	}
	if m.mtime == 0 {
		m.mtime = f.start
	}
	if m.atime == 0 {
		m.atime = m.mtime
	}
	if at.Owner != nil {
		m.uid, m.gid = at.Owner.UID, at.Owner.GID
	}
	return m
}

// newMeta is the attributes of a file or directory made now by the
// caller of the request in ctx (the kernel has applied its umask).
func (f *FS) newMeta(ctx context.Context, mode uint32) meta {
	now := time.Now().UnixNano()
	m := meta{mode: mode & 0o7777, mtime: now, atime: now, uid: f.uid, gid: f.gid}
	if c, ok := fuse.FromContext(ctx); ok {
		m.uid, m.gid = c.Uid, c.Gid
	}
	return m
}

// FS is one mounted volume. Every operation holds mu: the store calls
// are network round trips, and serializing them keeps the cache and the
// relays in step without finer locking.
type FS struct {
	store Store
	cache string // directory of cache files
	mu    sync.Mutex
	next  uint64 // cache file counter
	root  *dirNode
	start int64 // mount time: the modification time of files that record none
	// uid and gid own the files and directories that record no owner:
	// the user who mounted the volume.
	uid, gid uint32
	// Logf, when set, is told of store failures (they reach the caller
	// only as EIO).
	Logf func(format string, args ...any)
}

// New makes the file system for store, caching file contents in cacheDir.
func New(store Store, cacheDir string) *FS {
	f := &FS{store: store, cache: cacheDir, uid: uint32(os.Getuid()), gid: uint32(os.Getgid())}
	f.root = &dirNode{fsys: f}
	return f
}

// Mount lists the volume and mounts it on dir. The caller waits on the
// returned server (srv.Wait) and unmounts it (srv.Unmount).
func (f *FS) Mount(ctx context.Context, dir string) (*fuse.Server, error) {
	entries, err := f.store.List(ctx)
	if err != nil {
		return nil, fmt.Errorf("list volume: %w", err)
	}
	f.root.initial = entries
	f.start = time.Now().UnixNano()
	f.root.meta = f.metaOf(cluster.Attrs{}, defaultDirMode)
	// default_permissions: the kernel checks access against the modes and
	// owners the mount reports, as for a local file system.
	srv, err := fs.Mount(dir, f.root, &fs.Options{MountOptions: fuse.MountOptions{FsName: "cbfs", Name: "cbfs", Options: []string{"default_permissions"}}})
	if err != nil {
		return nil, fmt.Errorf("mount %s: %w", dir, err)
	}
	return srv, nil
}

func (f *FS) logf(format string, args ...any) {
	if f.Logf != nil {
		f.Logf(format, args...)
	}
}

// pathOf is an inode's path in the volume ("a/b/c").
func (f *FS) pathOf(n *fs.Inode) string { return n.Path(f.root.EmbeddedInode()) }

type dirNode struct {
	fs.Inode
	fsys    *FS
	initial []Entry // the listing the root builds its tree from
	meta
	stored bool // the volume holds a manifest for this directory
}

// newDir is an inode for a directory with attributes m.
func (d *dirNode) newDir(ctx context.Context, parent *fs.Inode, m meta) (*fs.Inode, *dirNode) {
	dn := &dirNode{fsys: d.fsys, meta: m}
	return parent.NewPersistentInode(ctx, dn, fs.StableAttr{Mode: syscall.S_IFDIR}), dn
}

// store records the directory's attributes in its manifest.
func (d *dirNode) store(ctx context.Context) syscall.Errno {
	p := d.fsys.pathOf(&d.Inode)
	if p == "" {
		return 0 // the root's attributes are the mount's
	}
	if _, err := d.fsys.store.PutDir(ctx, p, d.attrs()); err != nil {
		d.fsys.logf("directory %s: %v", p, err)
		return syscall.EIO
	}
	d.stored = true
	return 0
}

var (
	_ fs.NodeOnAdder   = (*dirNode)(nil)
	_ fs.NodeCreater   = (*dirNode)(nil)
	_ fs.NodeMkdirer   = (*dirNode)(nil)
	_ fs.NodeUnlinker  = (*dirNode)(nil)
	_ fs.NodeRmdirer   = (*dirNode)(nil)
	_ fs.NodeRenamer   = (*dirNode)(nil)
	_ fs.NodeGetattrer = (*dirNode)(nil)
	_ fs.NodeSetattrer = (*dirNode)(nil)
)

// OnAdd builds the tree of the listing when the root is mounted: a
// directory's own manifest gives its attributes, others are implied by
// their files' paths.
func (d *dirNode) OnAdd(ctx context.Context) {
	implied := d.fsys.metaOf(cluster.Attrs{}, defaultDirMode)
	for _, e := range d.initial {
		parts := strings.Split(e.Path, "/")
		dir := &d.Inode
		last := len(parts) - 1
		if e.Dir {
			last = len(parts)
		}
		for _, p := range parts[:last] {
			ch := dir.GetChild(p)
			if ch == nil {
				ch, _ = d.newDir(ctx, dir, implied)
				dir.AddChild(p, ch, false)
			}
			dir = ch
		}
		if e.Dir {
			if dn, ok := dir.Operations().(*dirNode); ok {
				dn.meta, dn.stored = d.fsys.metaOf(e.Attrs, defaultDirMode), true
			}
			continue
		}
		fn := &fileNode{fsys: d.fsys, size: int64(e.Size), stored: true, meta: d.fsys.metaOf(e.Attrs, defaultMode)}
		dir.AddChild(parts[len(parts)-1], dir.NewPersistentInode(ctx, fn, fs.StableAttr{Mode: syscall.S_IFREG}), true)
	}
	d.initial = nil
}

func (d *dirNode) Getattr(ctx context.Context, f fs.FileHandle, out *fuse.AttrOut) syscall.Errno {
	d.fsys.mu.Lock()
	defer d.fsys.mu.Unlock()
	d.fill(&out.Attr, syscall.S_IFDIR)
	return 0
}

// Setattr handles chmod, chown and utimes of a directory: stored at once
// in the directory's manifest.
func (d *dirNode) Setattr(ctx context.Context, f fs.FileHandle, in *fuse.SetAttrIn, out *fuse.AttrOut) syscall.Errno {
	d.fsys.mu.Lock()
	defer d.fsys.mu.Unlock()
	if _, ok := in.GetSize(); ok {
		return syscall.EISDIR
	}
	if d.setattr(in) {
		if errno := d.store(ctx); errno != 0 {
			return errno
		}
	}
	d.fill(&out.Attr, syscall.S_IFDIR)
	return 0
}

func (d *dirNode) Create(ctx context.Context, name string, flags uint32, mode uint32, out *fuse.EntryOut) (*fs.Inode, fs.FileHandle, uint32, syscall.Errno) {
	d.fsys.mu.Lock()
	defer d.fsys.mu.Unlock()
	fn := &fileNode{fsys: d.fsys, meta: d.fsys.newMeta(ctx, mode)}
	if errno := fn.openCache(true); errno != 0 {
		return nil, nil, 0, errno
	}
	fn.dirty = true // an empty file exists once closed
	ch := d.NewPersistentInode(ctx, fn, fs.StableAttr{Mode: syscall.S_IFREG})
	fn.attr(&out.Attr)
	return ch, &handle{append: flags&syscall.O_APPEND != 0}, 0, 0
}

// Mkdir makes the directory and stores its manifest at once: an empty
// directory lasts.
func (d *dirNode) Mkdir(ctx context.Context, name string, mode uint32, out *fuse.EntryOut) (*fs.Inode, syscall.Errno) {
	d.fsys.mu.Lock()
	defer d.fsys.mu.Unlock()
	ch, dn := d.newDir(ctx, &d.Inode, d.fsys.newMeta(ctx, mode))
	p := path.Join(d.fsys.pathOf(&d.Inode), name)
	if _, err := d.fsys.store.PutDir(ctx, p, dn.attrs()); err != nil {
		d.fsys.logf("mkdir %s: %v", p, err)
		return nil, syscall.EIO
	}
	dn.stored = true
	dn.fill(&out.Attr, syscall.S_IFDIR)
	return ch, 0
}

func (d *dirNode) Unlink(ctx context.Context, name string) syscall.Errno {
	d.fsys.mu.Lock()
	defer d.fsys.mu.Unlock()
	ch := d.GetChild(name)
	if ch == nil {
		return syscall.ENOENT
	}
	fn, ok := ch.Operations().(*fileNode)
	if !ok {
		return syscall.EISDIR
	}
	if fn.stored {
		if err := d.fsys.store.Delete(ctx, d.fsys.pathOf(ch)); err != nil {
			d.fsys.logf("delete %s: %v", d.fsys.pathOf(ch), err)
			return syscall.EIO
		}
	}
	fn.stored, fn.man = false, nil
	fn.dirty, fn.metaDirty = false, false // a later close of an open handle must not bring it back
	fn.unlinked = true
	return 0
}

func (d *dirNode) Rmdir(ctx context.Context, name string) syscall.Errno {
	ch := d.GetChild(name)
	if ch == nil {
		return syscall.ENOENT
	}
	if _, ok := ch.Operations().(*dirNode); !ok {
		return syscall.ENOTDIR
	}
	if len(ch.Children()) > 0 {
		return syscall.ENOTEMPTY
	}
	d.fsys.mu.Lock()
	defer d.fsys.mu.Unlock()
	if dn := ch.Operations().(*dirNode); dn.stored {
		p := d.fsys.pathOf(ch)
		if err := d.fsys.store.Delete(ctx, p); err != nil {
			d.fsys.logf("rmdir %s: %v", p, err)
			return syscall.EIO
		}
		dn.stored = false
	}
	return 0
}

// Rename moves every stored file below name to its new path on the
// relays (metadata only); a file not stored yet is put under its new path
// when it is closed. A file already at the target is replaced.
func (d *dirNode) Rename(ctx context.Context, name string, newParent fs.InodeEmbedder, newName string, flags uint32) syscall.Errno {
	if flags != 0 {
		return syscall.EINVAL // RENAME_EXCHANGE / NOREPLACE are not supported
	}
	d.fsys.mu.Lock()
	defer d.fsys.mu.Unlock()
	ch := d.GetChild(name)
	if ch == nil {
		return syscall.ENOENT
	}
	np := path.Join(d.fsys.pathOf(newParent.EmbeddedInode()), newName)
	if tgt := newParent.EmbeddedInode().GetChild(newName); tgt != nil {
		if td, isDir := tgt.Operations().(*dirNode); isDir {
			if len(tgt.Children()) > 0 {
				return syscall.ENOTEMPTY
			}
			// A stored source directory replaces the target's manifest in
			// its rename; otherwise the target's goes now.
			if sd, ok := ch.Operations().(*dirNode); td.stored && (!ok || !sd.stored) {
				if err := d.fsys.store.Delete(ctx, np); err != nil {
					d.fsys.logf("delete %s: %v", np, err)
					return syscall.EIO
				}
			}
			td.stored = false
		} else if tf, ok := tgt.Operations().(*fileNode); ok && !ch.IsDir() {
			// A stored source replaces the target in its rename; one not
			// stored yet replaces it at its close, so the old target goes now.
			if sf, ok := ch.Operations().(*fileNode); ok && !sf.stored && tf.stored {
				if err := d.fsys.store.Delete(ctx, np); err != nil {
					d.fsys.logf("delete %s: %v", np, err)
					return syscall.EIO
				}
			}
			tf.unlinked, tf.dirty, tf.metaDirty, tf.stored, tf.man = true, false, false, false, nil
		}
	}
	return d.fsys.move(ctx, ch, d.fsys.pathOf(ch), np)
}

// move renames the stored file or every stored file of the directory n
// from old to new paths. Changes not uploaded yet stay pending: the next
// close uploads them (against the moved manifest) under the new path.
func (f *FS) move(ctx context.Context, n *fs.Inode, from, to string) syscall.Errno {
	switch x := n.Operations().(type) {
	case *dirNode:
		for name, ch := range n.Children() {
			if errno := f.move(ctx, ch, from+"/"+name, to+"/"+name); errno != 0 {
				return errno
			}
		}
		if x.stored {
			if _, err := f.store.Rename(ctx, from, to); err != nil {
				f.logf("rename %s to %s: %v", from, to, err)
				return syscall.EIO
			}
		}
		return 0
	case *fileNode:
		if !x.stored {
			return 0
		}
		m, err := f.store.Rename(ctx, from, to)
		if err != nil {
			f.logf("rename %s to %s: %v", from, to, err)
			return syscall.EIO
		}
		x.man = m
		return 0
	}
	return syscall.EIO
}

// fileNode is one file: its size as listed until it is opened, then its
// local cache file.
type fileNode struct {
	fs.Inode
	fsys     *FS
	size     int64          // listed size, while file is nil
	file     *os.File       // the cache file, once fetched or created
	man      *cbfs.Manifest // the stored file's manifest, once known
	dirty    bool           // the cache file differs from the stored file
	segs     map[int]bool   // segments (of man) written or cut since the last upload
	allSegs  bool           // changed while man was unknown: every segment counts as changed
	stored   bool           // the volume holds a file at this path
	unlinked bool

	meta
	metaDirty bool // the attributes differ from the stored ones
}

// clean is the state after an upload.
func (n *fileNode) clean() { n.dirty, n.metaDirty, n.segs, n.allSegs = false, false, nil, false }

// curSize is the file's size now.
func (n *fileNode) curSize() int64 {
	if n.file != nil {
		if st, err := n.file.Stat(); err == nil {
			return st.Size()
		}
	}
	return n.size
}

// changed marks the bytes [from, to) as written: every segment of the
// stored file they fall in is uploaded again at the next flush.
func (n *fileNode) changed(from, to int64) {
	n.dirty = true
	n.mtime = time.Now().UnixNano()
	if n.man == nil {
		// Truncated on open without a fetch: the segment size is not known
		// here, so the update rewrites every segment.
		n.allSegs = true
		return
	}
	if to <= from {
		return
	}
	seg := int64(n.man.SegSize)
	if n.segs == nil {
		n.segs = map[int]bool{}
	}
	for i := from / seg; i <= (to-1)/seg; i++ {
		n.segs[int(i)] = true
	}
}

var (
	_ fs.NodeOpener    = (*fileNode)(nil)
	_ fs.NodeGetattrer = (*fileNode)(nil)
	_ fs.NodeSetattrer = (*fileNode)(nil)
	_ fs.NodeReader    = (*fileNode)(nil)
	_ fs.NodeWriter    = (*fileNode)(nil)
	_ fs.NodeFlusher   = (*fileNode)(nil)
	_ fs.NodeFsyncer   = (*fileNode)(nil)
)

// handle remembers how a file was opened.
type handle struct{ append bool }

// openCache makes an empty cache file (empty) or one to fetch into.
func (n *fileNode) openCache(empty bool) syscall.Errno {
	if n.file != nil {
		if empty {
			if err := n.file.Truncate(0); err != nil {
				return syscall.EIO
			}
		}
		return 0
	}
	n.fsys.next++
	f, err := os.OpenFile(filepath.Join(n.fsys.cache, fmt.Sprintf("f%d", n.fsys.next)), os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		n.fsys.logf("cache: %v", err)
		return syscall.EIO
	}
	n.file = f
	return 0
}

// load fetches the stored file into the cache unless it is there.
func (n *fileNode) load(ctx context.Context, p string) syscall.Errno {
	if n.file != nil {
		return 0
	}
	if errno := n.openCache(true); errno != 0 {
		return errno
	}
	if !n.stored {
		return 0
	}
	m, err := n.fsys.store.Get(ctx, p, n.file)
	if err != nil {
		n.fsys.logf("get %s: %v", p, err)
		n.file.Close()
		n.file = nil
		return syscall.EIO
	}
	n.man = m
	return 0
}

func (n *fileNode) attr(out *fuse.Attr) {
	n.fill(out, syscall.S_IFREG)
	out.Size = uint64(n.curSize())
	out.Blocks = (out.Size + 511) / 512
}

func (n *fileNode) Getattr(ctx context.Context, f fs.FileHandle, out *fuse.AttrOut) syscall.Errno {
	n.fsys.mu.Lock()
	defer n.fsys.mu.Unlock()
	n.attr(&out.Attr)
	return 0
}

// Setattr handles truncate (size), chmod, chown and utimes. Without a
// file handle (truncate, chmod, chown, touch by path) no close follows,
// so the change is stored at once.
func (n *fileNode) Setattr(ctx context.Context, f fs.FileHandle, in *fuse.SetAttrIn, out *fuse.AttrOut) syscall.Errno {
	n.fsys.mu.Lock()
	defer n.fsys.mu.Unlock()
	if sz, ok := in.GetSize(); ok {
		cur := n.curSize()
		var errno syscall.Errno
		if sz == 0 {
			errno = n.openCache(true)
		} else {
			errno = n.load(ctx, n.fsys.pathOf(&n.Inode))
		}
		if errno != 0 {
			return errno
		}
		if err := n.file.Truncate(int64(sz)); err != nil {
			return syscall.EIO
		}
		// The bytes between the old and the new end change (cut, or
		// zeros), and so does the segment holding the new end.
		n.changed(min(int64(sz), cur), max(int64(sz), cur))
		n.changed(int64(sz), int64(sz)+1)
	}
	if n.setattr(in) {
		n.metaDirty = true
	}
	if f == nil {
		if errno := n.upload(ctx); errno != 0 {
			return errno
		}
	}
	n.attr(&out.Attr)
	return 0
}

func (n *fileNode) Open(ctx context.Context, flags uint32) (fs.FileHandle, uint32, syscall.Errno) {
	n.fsys.mu.Lock()
	defer n.fsys.mu.Unlock()
	var errno syscall.Errno
	if flags&syscall.O_TRUNC != 0 {
		old := n.curSize()
		errno = n.openCache(true)
		n.changed(0, max(old, 1))
	} else {
		errno = n.load(ctx, n.fsys.pathOf(&n.Inode))
	}
	if errno != 0 {
		return nil, 0, errno
	}
	return &handle{append: flags&syscall.O_APPEND != 0}, 0, 0
}

func (n *fileNode) Read(ctx context.Context, f fs.FileHandle, dest []byte, off int64) (fuse.ReadResult, syscall.Errno) {
	n.fsys.mu.Lock()
	defer n.fsys.mu.Unlock()
	if errno := n.load(ctx, n.fsys.pathOf(&n.Inode)); errno != 0 {
		return nil, errno
	}
	k, err := n.file.ReadAt(dest, off)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, syscall.EIO
	}
	return fuse.ReadResultData(dest[:k]), 0
}

func (n *fileNode) Write(ctx context.Context, f fs.FileHandle, data []byte, off int64) (uint32, syscall.Errno) {
	n.fsys.mu.Lock()
	defer n.fsys.mu.Unlock()
	if errno := n.load(ctx, n.fsys.pathOf(&n.Inode)); errno != 0 {
		return 0, errno
	}
	cur := n.curSize()
	if h, ok := f.(*handle); ok && h.append {
		off = cur
	}
	k, err := n.file.WriteAt(data, off)
	n.changed(min(off, cur), off+int64(k)) // a write past the end also fills the gap with zeros
	if err != nil {
		return uint32(k), syscall.EIO
	}
	return uint32(k), 0
}

// upload stores what changed since the last upload: the changed
// segments of a stored file (in place), or the whole file if the volume
// has none at this path yet; attributes alone need only a new manifest.
func (n *fileNode) upload(ctx context.Context) syscall.Errno {
	if (!n.dirty && !n.metaDirty) || n.unlinked {
		return 0
	}
	p := n.fsys.pathOf(&n.Inode)
	if n.stored && n.man == nil {
		m, err := n.fsys.store.Stat(ctx, p)
		if err != nil {
			n.fsys.logf("stat %s: %v", p, err)
			return syscall.EIO
		}
		n.man = m
	}
	var m *cbfs.Manifest
	var err error
	switch {
	case n.stored && n.file == nil: // attributes only: the contents are not even fetched
		m, err = n.fsys.store.Update(ctx, n.man, emptyReader{}, n.man.Size, func(int) bool { return false }, n.attrs())
	case n.stored:
		segs, all := n.segs, n.allSegs
		m, err = n.fsys.store.Update(ctx, n.man, n.file, uint64(n.curSize()), func(i int) bool { return all || segs[i] }, n.attrs())
	default:
		if n.file == nil {
			return 0
		}
		if _, err := n.file.Seek(0, io.SeekStart); err != nil {
			return syscall.EIO
		}
		m, err = n.fsys.store.Put(ctx, p, n.file, n.attrs())
	}
	if err != nil {
		n.fsys.logf("store %s: %v", p, err)
		return syscall.EIO
	}
	n.man, n.stored = m, true
	n.clean()
	return 0
}

// emptyReader is the contents of an attribute-only update, which reads
// no segment.
type emptyReader struct{}

func (emptyReader) ReadAt([]byte, int64) (int, error) { return 0, io.EOF }

// Flush runs on every close(2): a written file is uploaded then, so the
// close reports a failed upload.
func (n *fileNode) Flush(ctx context.Context, f fs.FileHandle) syscall.Errno {
	n.fsys.mu.Lock()
	defer n.fsys.mu.Unlock()
	return n.upload(ctx)
}

func (n *fileNode) Fsync(ctx context.Context, f fs.FileHandle, flags uint32) syscall.Errno {
	n.fsys.mu.Lock()
	defer n.fsys.mu.Unlock()
	return n.upload(ctx)
}
