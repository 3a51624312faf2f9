package vm

import (
	"path"
	"strings"

	"github.com/cowboy-chain/cowboy/pvm/meter"
	"github.com/cowboy-chain/cowboy/pvm/object"
)

// ScratchLimit is the /tmp scratch space of one invocation in bytes
// (technical spec §3.1: 256 KiB, counted toward cells).
const ScratchLimit = 256 << 10

// ScratchFS is the per-invocation /tmp scratch space behind open(). The
// chain wipes it after the handler; MemScratch is the in-memory version.
type ScratchFS interface {
	ReadFile(name string) ([]byte, bool)
	WriteFile(name string, data []byte) error
}

// MemScratch is an in-memory ScratchFS capped at ScratchLimit bytes.
// used is the total of all files' sizes: the 256 KiB limit is on the
// whole scratch space, not per file.
type MemScratch struct {
	files map[string][]byte
	used  int
}

// NewMemScratch returns an empty scratch space.
func NewMemScratch() *MemScratch { return &MemScratch{files: map[string][]byte{}} }

// ReadFile returns a file's contents.
func (s *MemScratch) ReadFile(name string) ([]byte, bool) {
	b, ok := s.files[name]
	return b, ok
}

// WriteFile replaces a file's contents within the scratch limit.
func (s *MemScratch) WriteFile(name string, data []byte) error {
	used := s.used - len(s.files[name]) + len(data)
	if used > ScratchLimit {
		return object.Errorf(object.OSError, "[Errno 28] No space left on device: '%s'", name)
	}
	s.used = used
	s.files[name] = append([]byte(nil), data...)
	return nil
}

// fileClass is the type of an open scratch file, named as CPython names a
// text file's type (_io.TextIOWrapper) so type(f) prints the same; binary
// files share it.
var fileClass = func() *object.Class {
	k := &object.Class{Name: "TextIOWrapper", Module: "_io", Dict: object.NewStrDict()}
	object.MarkShared(k)
	return k
}()

func init() { fileClass.MRO = []*object.Class{fileClass, object.ObjectClass} }

// scratchFile is an open file in the scratch space.
// A scratchFile buffers the whole file: buf is its content and pos the
// read/write position. Every write goes through to the ScratchFS at once
// (flush), so two handles on one file see each other's writes when they
// are opened, and the space limit is checked on each write.
type scratchFile struct {
	t      *Thread
	name   string
	mode   string
	binary bool
	buf    []byte
	pos    int
	closed bool
}

// Type implements object.Value.
func (*scratchFile) Type() *object.Class { return fileClass }

// Repr implements object.Value.
func (f *scratchFile) Repr(object.Ctx) (string, error) {
	return "<_io.TextIOWrapper name='" + f.name + "' mode='" + f.mode + "'>", nil
}

// Truth implements object.Value.
func (*scratchFile) Truth(object.Ctx) (bool, error) { return true, nil }

// Hash implements object.Value.
// Files hash by name length, not address, like every PVM object whose
// identity is its only equality.
func (f *scratchFile) Hash(object.Ctx) (int64, error) { return int64(len(f.name)) * 0x66696c, nil }

func (f *scratchFile) flush() error {
	if strings.ContainsAny(f.mode, "wa+") {
		return f.t.FS.WriteFile(f.name, f.buf)
	}
	return nil
}

// Next implements object.Iterator: iterating a file yields lines.
// A line includes its "\n", as CPython's readline keeps it; the last line
// may lack one. There is no newline translation (newline=None in CPython
// turns \r\n into \n on reading text), which the scratch space, written
// only by the same call, does not need.
func (f *scratchFile) Next(c object.Ctx) (object.Value, bool, error) {
	if f.pos >= len(f.buf) {
		return nil, false, nil
	}
	rest := f.buf[f.pos:]
	i := strings.IndexByte(string(rest), '\n')
	if i < 0 {
		i = len(rest) - 1
	}
	f.pos += i + 1
	return f.wrap(rest[:i+1]), true, nil
}

// wrap gives b as str in text mode and bytes in binary mode. Text is
// stored as the str's UTF-8 (CPython would use the locale's encoding,
// UTF-8 on a usual Linux host; the PVM has no locale).
func (f *scratchFile) wrap(b []byte) object.Value {
	if f.binary {
		return object.Bytes(b)
	}
	return object.Str(b)
}

// GetAttr implements object.AttrGetter: read, write, readline, readlines,
// close and the context-manager methods.
// Every method checks that the file is open first, except close and
// __exit__, which may be called twice, as in CPython.
func (f *scratchFile) GetAttr(c object.Ctx, name string) (object.Value, bool, error) {
	m := func(fn builtinFn) (object.Value, bool, error) {
		return object.NewBuiltin(name, func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
			if f.closed && name != "close" && name != "__exit__" {
				return nil, object.Errorf(object.ValueError, "I/O operation on closed file.")
			}
			return fn(c, args, kw)
		}), true, nil
	}
	switch name {
	case "read":
		return m(func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
			rest := f.buf[f.pos:]
			f.pos = len(f.buf)
			return f.wrap(rest), nil
		})
	case "readline":
		return m(func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
			v, ok, err := f.Next(c)
			if !ok || err != nil {
				return f.wrap(nil), err
			}
			return v, nil
		})
	case "readlines":
		return m(func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
			return object.ListOf(c, f)
		})
	// Writing is charged in cells, one per byte written (technical spec §3.1
	// counts scratch space toward cells), and refused past ScratchLimit
	// before anything is charged, so a refused write costs nothing but the
	// call.
	case "write":
		return m(func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
			if err := object.ArgCount("write", args, 1, 1); err != nil {
				return nil, err
			}
			var data []byte
			switch x := args[0].(type) {
			case object.Str:
				if f.binary {
					return nil, object.Errorf(object.TypeError, "a bytes-like object is required, not 'str'")
				}
				data = []byte(x)
			case object.Bytes:
				if !f.binary {
					return nil, object.Errorf(object.TypeError, "write() argument must be str, not bytes")
				}
				data = []byte(x)
			default:
				return nil, object.Errorf(object.TypeError, "write() argument must be str, not %s", object.TypeName(args[0]))
			}
			if !strings.ContainsAny(f.mode, "wa+") {
				return nil, object.Errorf(object.OSError, "not writable")
			}
			if len(f.buf)+len(data) > ScratchLimit {
				return nil, object.Errorf(object.OSError, "[Errno 28] No space left on device")
			}
			if err := c.Meter().ChargeCells(uint64(len(data))); err != nil {
				return nil, err
			}
			f.buf = append(f.buf[:f.pos], data...)
			f.pos = len(f.buf)
			if err := f.flush(); err != nil {
				return nil, err
			}
			return object.Int(object.Str(data).Len()), nil
		})
	case "close":
		return m(func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
			f.closed = true
			return object.None, nil
		})
	case "__enter__":
		return m(func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) { return f, nil })
	// __exit__ closes the file and returns False, so an exception raised in
	// the with block propagates, as in CPython's IOBase.__exit__.
	case "__exit__":
		return m(func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
			f.closed = true
			return object.False, nil
		})
	case "name":
		return object.Str(f.name), true, nil
	case "closed":
		return object.MakeBool(f.closed), true, nil
	}
	return nil, false, nil
}

// builtinOpen is open() restricted to the /tmp scratch space (technical
// spec, "Filesystem: All except /tmp scratch space").
// The path is cleaned before the /tmp check, so "/tmp/../etc/passwd" is
// refused; opening counts as an effect (a module that opens a file is
// never snapshotted) and costs CostStorageRead whether or not the file
// exists. Mode "w" truncates at once, as CPython's open does; the
// buffering, encoding, errors and newline arguments are accepted and
// ignored (text is always UTF-8).
func (t *Thread) builtinOpen(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
	a, err := object.UnpackArgs("open", args, kw, "file", "mode?", "buffering?", "encoding?", "errors?", "newline?")
	if err != nil {
		return nil, err
	}
	name, ok := a[0].(object.Str)
	if !ok {
		return nil, object.Errorf(object.TypeError, "expected str, bytes or os.PathLike object, not %s", object.TypeName(a[0]))
	}
	clean := path.Clean(string(name))
	t.effects++
	if !strings.HasPrefix(clean, "/tmp/") || t.FS == nil {
		return nil, object.Errorf(object.PermissionError, "[Errno 13] Permission denied: %s (the PVM allows files under /tmp only)", strQuote(string(name)))
	}
	mode := "r"
	if a[1] != nil {
		ms, ok := a[1].(object.Str)
		if !ok {
			return nil, object.Errorf(object.TypeError, "open() argument 'mode' must be str, not %s", object.TypeName(a[1]))
		}
		mode = string(ms)
	}
	if err := t.meter.Charge(meter.CostStorageRead); err != nil {
		return nil, err
	}
	f := &scratchFile{t: t, name: clean, mode: mode, binary: strings.Contains(mode, "b")}
	data, exists := t.FS.ReadFile(clean)
	switch {
	case strings.Contains(mode, "w"):
		if err := t.FS.WriteFile(clean, nil); err != nil {
			return nil, err
		}
	case strings.Contains(mode, "a"):
		f.buf = append([]byte(nil), data...)
		f.pos = len(f.buf)
	default:
		if !exists {
			return nil, object.Errorf(object.FileNotFoundError, "[Errno 2] No such file or directory: %s", strQuote(string(name)))
		}
		f.buf = append([]byte(nil), data...)
	}
	return f, nil
}

// strQuote is Python's repr of a str, for the quoted path of OSError
// messages ([Errno 2] No such file or directory: '/tmp/x').
func strQuote(s string) string { r, _ := object.Str(s).Repr(nil); return r }

// clearSlots sets every value of s to nil with plain stores: s is a few
// slots of a value stack or an argument list, for which the runtime's
// bulk clear (memclrHasPointers, behind clear) costs more than the stores.
func clearSlots(s []object.Value) {
	for i := 0; i < len(s); i++ {
		s[i] = nil
	}
}
