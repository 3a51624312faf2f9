package vm

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/cowboy-chain/cowboy/pvm/compile"
	"github.com/cowboy-chain/cowboy/pvm/object"
)

// Module snapshots.
//
// Every actor call runs in a fresh thread, so `import cowboy_sdk` (and any
// whitelisted module written in Python) would run the module's code again
// in every call. Instead, the first run of an import records the state it
// leaves: the modules it put in the thread's cache, deep-copied into a
// pristine snapshot, and what it cost. A later import in the same starting
// state copies the snapshot into its thread and charges exactly what the
// run cost. Nothing a program can observe differs from running the module:
//
//   - The cost is the same: the recorded cycles and allocated bytes are
//     charged, and the identity, frame and class-epoch counters advance by
//     the recorded amounts. Replay happens only when running the module
//     could not have hit a limit on the way (enough cycles left, the
//     allocation counter stays under the memory limit so no live-heap walk
//     would start, the same frame depth); otherwise the module runs.
//   - The objects are the same: the copy has the shape the run builds,
//     sharing and cycles included, with the same identity numbers, because
//     a snapshot is used only when the thread's identity, frame and nesting
//     counters equal those at recording (snapKey). The live-heap walk
//     therefore counts the same objects and sizes.
//   - An import that did anything else, or that this copier cannot copy,
//     is never snapshotted and simply runs every time: output (print),
//     files, cells, a live-heap walk, a Go module whose loading charged
//     anything, a module it imports that the thread had already imported,
//     an exception being handled when it started, or a value of a type
//     the copier does not know.
//
// Only modules built by PythonModuleDef are snapshotted: the standard
// library written in Python and cowboy_sdk, whose sources ship with the
// node and touch no host state while they are imported.

// maxSnapshots bounds the snapshots kept per module (one per starting
// state); further states run the module every time.
const maxSnapshots = 4

// snapKey is the thread state an import's result depends on besides the
// modules it imports: identity numbers, frame numbers (tracebacks) and
// nesting depths.
// Each field is something the module's code could observe or be
// limited by: identities number the instances it makes (and appear in
// default reprs), frame numbers name its frames, and the meter's depth,
// the maximum depth, the native nesting and the slab pointer decide where
// a deep recursion inside the module would fail. Two threads with the
// same key run the module to the same result; a different key is a
// different snapshot (or a run).
type snapKey struct {
	nextID, frameSeq int64
	depth, maxDepth  int
	nest, sp         int
}

// snapshots is the per-module store, shared by every thread of the
// process.
type snapshots struct {
	// replays counts the imports served from a snapshot (for tests).
	replays atomic.Uint64
	mu      sync.Mutex
	list    []*moduleSnapshot
	tried   []snapKey // states whose recording failed: not tried again
}

// moduleSnapshot is the recorded result of one import.
type moduleSnapshot struct {
	key snapKey
	// mods are the modules the import put in the cache, in the order they
	// were first imported: pristine copies for modules written in Python,
	// nil for modules written in Go, which are loaded again (their loading
	// charges nothing, checked at recording).
	mods []snapModule
	// holes are the placeholders the copies hold for values of the Go
	// modules: each stands for the module's global of that name.
	holes []snapHole
	// The costs and counter advances of running the import.
	cycles, mem uint64
	ids, frames int64
	epochs      uint64
	touched     []string // every module name the import looked up
	objects     int      // how many objects a copy makes, to size its tables
	dicts       int
	sizes       copySizes // how many of each kind, to allocate them at once
}

type snapModule struct {
	name  string
	mod   *Module    // nil for a Go module
	snaps *snapshots // the module's own store, for Python modules
}

type snapHole struct {
	ph     object.Value
	module string
	name   string // "" for the module itself
}

// find returns the snapshot recorded for k, or skip true when k must not
// be recorded again: the store is full, or recording from k failed before
// (an import whose recording failed once fails the same way again).
func (s *snapshots) find(k snapKey) (*moduleSnapshot, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, m := range s.list {
		if m.key == k {
			return m, true
		}
	}
	return nil, len(s.list) >= maxSnapshots || slices.Contains(s.tried, k)
}

// add keeps m (nil: the recording from k failed). Two threads may record
// the same state at once; the first one kept wins and the other is
// dropped, which is safe because both copies are of the same run.
func (s *snapshots) add(m *moduleSnapshot, k snapKey) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if m == nil {
		if len(s.tried) < maxSnapshots*4 {
			s.tried = append(s.tried, k)
		}
		return
	}
	for _, o := range s.list {
		if o.key == m.key {
			return
		}
	}
	if len(s.list) < maxSnapshots {
		s.list = append(s.list, m)
	}
}

// PythonModuleDef makes a whitelist entry for a module written in Python
// whose compiled code code returns; its imports are snapshotted (see the
// top of snapshot.go).
// The code is compiled once per process (the caller's func caches it)
// and run by RunModule, as the import machinery would run a .py file.
func PythonModuleDef(name string, code func() (*compile.Code, error)) ModuleDef {
	return ModuleDef{Name: name, snaps: &snapshots{}, Load: func(t *Thread) (*Module, error) {
		c, err := code()
		if err != nil {
			return nil, err
		}
		return t.RunModule(c, name)
	}}
}

// recorder watches one import being recorded.
// touched lists every module name the import looked up (the module's own
// imports, nested ones included); bad is set when a Go module's loading
// changed the thread, which a replay could not reproduce.
type recorder struct {
	touched []string
	bad     bool
}

func (t *Thread) snapKey() snapKey {
	k := snapKey{nextID: t.nextID, frameSeq: t.frameSeq, nest: t.nest, sp: t.sp}
	if t.meter != nil {
		k.depth, k.maxDepth = t.meter.Depth(), t.meter.MaxDepth()
	}
	return k
}

// noteImport tells the recorders running that name was imported.
func (t *Thread) noteImport(name string) {
	for _, r := range t.recorders {
		if !slices.Contains(r.touched, name) {
			r.touched = append(r.touched, name)
		}
	}
}

// threadState is what a recorded import may change and must be replayed.
// Comparing two threadStates says whether the code in between left a
// trace a replay must reproduce: cycles (left) and bytes (mem) are
// replayed, cells, heap walks and effects are not replayable at all.
type threadState struct {
	left, mem, cells, walks uint64
	ids, frames             int64
	epoch                   uint64
	effects                 uint64
}

func (t *Thread) state() threadState {
	return threadState{left: t.meter.Left, mem: t.meter.MemoryUsed(), cells: t.meter.CellsUsed(), walks: t.meter.Measurements(),
		ids: t.nextID, frames: t.frameSeq, epoch: t.classEpoch, effects: t.effects}
}

// loadGo loads a module written in Go. While an import is recorded, the
// loading must leave the thread as it found it, or the recording is void.
func (t *Thread) loadGo(def ModuleDef) (*Module, error) {
	if len(t.recorders) == 0 || t.meter == nil {
		return def.Load(t)
	}
	before := t.state()
	m, err := def.Load(t)
	if t.state() != before {
		for _, r := range t.recorders {
			r.bad = true
		}
	}
	return m, err
}

// loadPython performs the first import of a module written in Python:
// from its snapshot when one fits, else by running it (and recording a
// snapshot when possible).
// An exception being handled (t.handled) makes the import unrecordable:
// the module's code can reach it (an exception raised inside gets it as
// __context__, a bare raise re-raises it), and a reference from the
// module's objects into the caller's state is not something a snapshot
// can hold.
func (t *Thread) loadPython(def ModuleDef) (*Module, error) {
	if t.meter == nil || len(t.handled) != 0 {
		return def.Load(t)
	}
	key := t.snapKey()
	s, skip := def.snaps.find(key)
	if s != nil {
		if m, ok, err := t.replay(s); ok {
			def.snaps.replays.Add(1)
			return m, err
		}
		return def.Load(t)
	}
	if skip {
		return def.Load(t)
	}
	startCache := make(map[string]bool, len(t.cache))
	for n := range t.cache {
		startCache[n] = true
	}
	r := &recorder{}
	t.recorders = append(t.recorders, r)
	before := t.state()
	m, err := def.Load(t)
	after := t.state()
	t.recorders = t.recorders[:len(t.recorders)-1]
	if err != nil {
		return m, err
	}
	snap := t.record(def, m, r, startCache, before, after)
	if snap != nil {
		snap.key = key
	}
	def.snaps.add(snap, key)
	return m, nil
}

// record builds the snapshot of an import that just ran, or returns nil
// when the import cannot be replayed exactly.
// The checks, in order: no cells, walks or effects were spent (they are
// not replayed); no module the import touched was already in the thread's
// cache (the module would have seen that module's current state, not a
// fresh one, and a replay would install a fresh copy over it). Go modules
// are not copied: their values become placeholders (holes), filled at
// replay with the values of the Go module loaded into the replaying
// thread, since a Go module's objects are built per thread.
func (t *Thread) record(def ModuleDef, m *Module, r *recorder, startCache map[string]bool, before, after threadState) *moduleSnapshot {
	if r.bad || after.cells != before.cells || after.walks != before.walks || after.effects != before.effects {
		return nil
	}
	for _, n := range r.touched {
		if startCache[n] {
			return nil
		}
	}
	s := &moduleSnapshot{
		cycles: before.left - after.left, mem: after.mem - before.mem,
		ids: after.ids - before.ids, frames: after.frames - before.frames, epochs: after.epoch - before.epoch,
		touched: r.touched,
	}
	cp := newCopier(new(uint64), t.builtins)
	s.mods = append(s.mods, snapModule{name: def.Name, snaps: def.snaps})
	// Go modules first, so that their values become placeholders.
	for _, n := range r.touched {
		mod, ok := t.cache[n]
		if !ok || n == def.Name {
			continue
		}
		if d, _ := t.modules.Lookup(n); d.snaps != nil {
			sn := d.snaps
			s.mods = append(s.mods, snapModule{name: n, snaps: sn})
			continue
		}
		s.mods = append(s.mods, snapModule{name: n, mod: nil})
		ph := &Module{Name: n, Globals: object.NewStrDict()}
		cp.seed(mod, ph)
		s.holes = append(s.holes, snapHole{ph: ph, module: n})
		mod.Globals.Each(func(name string, v object.Value) {
			var hole object.Value
			switch v.(type) {
			case *object.Builtin:
				hole = &object.Builtin{Name: name}
			case *object.Class:
				hole = &object.Class{Name: name}
			case *Module:
				hole = &Module{Name: name}
			default:
				return
			}
			if cp.seed(v, hole) {
				s.holes = append(s.holes, snapHole{ph: hole, module: n, name: name})
			}
		})
	}
	for i := range s.mods {
		sm := &s.mods[i]
		if sm.name == def.Name {
			sm.mod = cp.module(m)
			continue
		}
		if sm.snaps != nil {
			sm.mod = cp.module(t.cache[sm.name])
		}
	}
	if cp.err != nil {
		return nil
	}
	s.objects, s.dicts, s.sizes = len(cp.memo), len(cp.dicts), cp.sizes
	return s
}

// replay installs a snapshot in t. ok false means the snapshot does not fit
// the thread's state and the module must run.
// Every check that can fail happens before the first change to the
// thread: cycles left, the memory counter (a replay must not skip a walk
// the run would have started), the modules touched not yet imported
// here, the registry unchanged since recording. The charges then are
// made in one Charge and one Alloc of the recorded totals: the same sums
// the run charges instruction by instruction, and since the replay is
// refused whenever the run could have stopped part way, the meter ends in
// the same state either way.
func (t *Thread) replay(s *moduleSnapshot) (*Module, bool, error) {
	mt := t.meter
	if mt.Left < s.cycles || mt.MemoryUsed() > mt.MemoryLimit() || s.mem > mt.MemoryLimit()-mt.MemoryUsed() {
		return nil, false, nil
	}
	for _, n := range s.touched {
		if _, ok := t.cache[n]; ok {
			return nil, false, nil
		}
	}
	for _, sm := range s.mods {
		d, ok := t.modules.Lookup(sm.name)
		if !ok || d.snaps != sm.snaps {
			return nil, false, nil
		}
	}
	// Load the Go modules and find the values the placeholders stand
	// for. Loading them leaves the thread as it was (checked when the
	// snapshot was recorded, and again here), so if anything is missing
	// the module can still simply run.
	before := t.state()
	cp := newCopier(&t.classEpoch, t.builtins)
	cp.pristine = true
	cp.memo = make(map[memoKey]object.Value, s.objects)
	cp.dicts = make(map[*object.StrDict]*object.StrDict, s.dicts)
	cp.reserve(s.sizes)
	loaded := map[string]*Module{}
	for _, sm := range s.mods {
		if sm.mod != nil {
			continue
		}
		d, _ := t.modules.Lookup(sm.name)
		m, err := d.Load(t)
		if err != nil || m == nil {
			return nil, false, nil
		}
		loaded[sm.name] = m
	}
	for _, h := range s.holes {
		m := loaded[h.module]
		if h.name == "" {
			cp.seed(h.ph, m)
			continue
		}
		v, ok := m.Globals.Get(h.name)
		if !ok {
			return nil, false, nil
		}
		cp.seed(h.ph, v)
	}
	if t.state() != before {
		return nil, true, fmt.Errorf("module snapshot of %s: loading its Go modules changed the thread", s.mods[0].name)
	}
	// Past this point the import happens: nothing below can fail for a
	// reason running the module would not have had.
	var main *Module
	for _, sm := range s.mods {
		var m *Module
		if sm.mod == nil {
			m = loaded[sm.name]
		} else {
			m = cp.module(sm.mod)
		}
		if main == nil {
			main = m
			continue
		}
		t.cache[sm.name] = m
	}
	if cp.err != nil {
		return nil, true, fmt.Errorf("module snapshot: %w", cp.err)
	}
	if err := mt.Charge(s.cycles); err != nil {
		return nil, true, err
	}
	if err := mt.Alloc(s.mem); err != nil {
		return nil, true, err
	}
	t.nextID += s.ids
	t.frameSeq += s.frames
	t.classEpoch += s.epochs
	return main, true, nil
}

// copier deep-copies an object graph (object.Cloner), memoizing by
// identity so sharing and cycles survive. err records the first value it
// could not copy.
// A copy must be indistinguishable from the run's objects: the memo
// keeps every object's one copy (two references to one list stay two
// references to one copy, and cycles close), and objects shared by every
// thread (builtin classes, builtin functions, compiled code, immutable
// values) are not copied at all, so `is` against them still holds.
type copier struct {
	// Objects of the common kinds come from slabs sized by the snapshot,
	// one allocation per kind instead of one per object.
	fns     slab[Function]
	classes slab[object.Class]
	insts   slab[object.Instance]
	sdicts  slab[object.StrDict]
	props   slab[object.Property]
	cells   slab[Cell]
	vals    slab[object.Value]
	keys    slab[string]
	sizes   copySizes
	memo    map[memoKey]object.Value
	dicts   map[*object.StrDict]*object.StrDict
	// builtins is the shared builtins namespace (see sharedBuiltin).
	builtins *object.StrDict
	// pristine is set when copying from a snapshot's pristine copy.
	pristine bool
	epoch    *uint64
	err      error
}

// A tuple is a slice, not a pointer: it is identified by its backing
// array and length, so a tuple referenced twice is copied once and keeps
// its identity in the copy.
type memoKey struct {
	p unsafe.Pointer
	n int // -1 for pointers, the length for tuples
}

func newCopier(epoch *uint64, builtins *object.StrDict) *copier {
	return &copier{memo: map[memoKey]object.Value{}, dicts: map[*object.StrDict]*object.StrDict{}, epoch: epoch, builtins: builtins}
}

// seed makes the copy of from be to; it reports false if from already has
// a copy.
func (c *copier) seed(from, to object.Value) bool {
	k, ok := keyOf(from)
	if !ok {
		return false
	}
	if _, dup := c.memo[k]; dup {
		return false
	}
	c.memo[k] = to
	return true
}

// The empty tuple has no backing array to key on; it is immutable and
// needs no copy (Clone returns it as is).
func keyOf(v object.Value) (memoKey, bool) {
	if t, ok := v.(object.Tuple); ok {
		if len(t) == 0 {
			return memoKey{}, false
		}
		return memoKey{p: unsafe.Pointer(unsafe.SliceData(t)), n: len(t)}, true
	}
	p, ok := ptrOf(v)
	return memoKey{p: p, n: -1}, ok
}

// ptrOf lists the mutable (or identity-bearing) kinds of value the
// copier can copy; a value of any other kind makes the recording fail
// (fail), and the module then runs on every import instead.
func ptrOf(v object.Value) (unsafe.Pointer, bool) {
	switch x := v.(type) {
	case *object.Class:
		return unsafe.Pointer(x), true
	case *object.Instance:
		return unsafe.Pointer(x), true
	case *object.Builtin:
		return unsafe.Pointer(x), true
	case *object.List:
		return unsafe.Pointer(x), true
	case *object.Dict:
		return unsafe.Pointer(x), true
	case *object.Set:
		return unsafe.Pointer(x), true
	case *object.ByteArray:
		return unsafe.Pointer(x), true
	case *object.BoundMethod:
		return unsafe.Pointer(x), true
	case *object.Property:
		return unsafe.Pointer(x), true
	case *object.StaticMethod:
		return unsafe.Pointer(x), true
	case *object.ClassMethod:
		return unsafe.Pointer(x), true
	case *object.Super:
		return unsafe.Pointer(x), true
	case *object.GenericAlias:
		return unsafe.Pointer(x), true
	case *object.DictView:
		return unsafe.Pointer(x), true
	case *object.SliceObj:
		return unsafe.Pointer(x), true
	case *Function:
		return unsafe.Pointer(x), true
	case *Cell:
		return unsafe.Pointer(x), true
	case *Module:
		return unsafe.Pointer(x), true
	}
	return nil, false
}

// ShareIndexes implements object.Cloner: copies of a pristine snapshot
// borrow its namespaces' indexes, which nothing changes.
func (c *copier) ShareIndexes() bool { return c.pristine }

// ClassEpoch implements object.Cloner.
func (c *copier) ClassEpoch() *uint64 { return c.epoch }

// CloneClass implements object.Cloner.
func (c *copier) CloneClass(k *object.Class) *object.Class {
	if k == nil {
		return nil
	}
	v, _ := c.Clone(k).(*object.Class)
	return v
}

// CloneStrDict implements object.Cloner.
func (c *copier) CloneStrDict(d *object.StrDict) *object.StrDict {
	if d == nil {
		return nil
	}
	if v, ok := c.dicts[d]; ok {
		return v
	}
	out := c.sdicts.get()
	c.sizes.sdicts++
	c.dicts[d] = out
	d.CloneInto(out, c)
	return out
}

func (c *copier) module(m *Module) *Module {
	v, _ := c.Clone(m).(*Module)
	return v
}

// Clone implements object.Cloner.
// Immutable values are shared rather than copied: nothing can change
// them and they carry no identity a program could compare differently.
// A shared class (builtin types, the builtins' classes) and a shared
// builtin function are shared for the same reason.
func (c *copier) Clone(v object.Value) object.Value {
	switch x := v.(type) {
	case nil:
		return nil
	case object.Str, object.Int, object.Float, object.Bool, object.NoneType, object.Bytes,
		*object.BigInt, *object.Range, *object.Singleton, *compile.Code:
		return v // immutable
	case object.Tuple:
		if len(x) == 0 {
			return x
		}
	case *object.Class:
		if x.Shared() {
			return x
		}
	case *object.Builtin:
		if sharedBuiltin(x, c.builtins) {
			return x
		}
	}
	k, ok := keyOf(v)
	if !ok {
		return c.fail(v)
	}
	if out, ok := c.memo[k]; ok {
		return out
	}
	switch x := v.(type) {
	case object.Tuple:
		out := make(object.Tuple, len(x))
		c.memo[k] = out
		for i, e := range x {
			out[i] = c.Clone(e)
		}
		return out
	case *object.Class:
		c.sizes.classes++
		return cloneTo(c, k, x, c.classes.get())
	case *object.Instance:
		c.sizes.insts++
		return cloneTo(c, k, x, c.insts.get())
	case *object.Property:
		c.sizes.props++
		return cloneTo(c, k, x, c.props.get())
	case *Function:
		c.sizes.fns++
		return cloneTo(c, k, x, c.fns.get())
	case *Cell:
		c.sizes.cells++
		return cloneTo(c, k, x, c.cells.get())
	case *object.List:
		return cloneTo(c, k, x, new(object.List))
	case *object.Dict:
		return cloneTo(c, k, x, new(object.Dict))
	case *object.Set:
		return cloneTo(c, k, x, new(object.Set))
	case *object.ByteArray:
		return cloneTo(c, k, x, new(object.ByteArray))
	case *object.BoundMethod:
		return cloneTo(c, k, x, new(object.BoundMethod))
	case *object.StaticMethod:
		return cloneTo(c, k, x, new(object.StaticMethod))
	case *object.ClassMethod:
		return cloneTo(c, k, x, new(object.ClassMethod))
	case *object.Super:
		return cloneTo(c, k, x, new(object.Super))
	case *object.GenericAlias:
		return cloneTo(c, k, x, new(object.GenericAlias))
	case *object.DictView:
		return cloneTo(c, k, x, new(object.DictView))
	case *object.SliceObj:
		return cloneTo(c, k, x, new(object.SliceObj))
	case *Module:
		return cloneTo(c, k, x, new(Module))
	}
	return c.fail(v)
}

// cloneable is a pointer to a struct that copies itself into another.
type cloneable[T any] interface {
	*T
	object.Value
	CloneInto(dst *T, c object.Cloner)
}

// cloneTo records out as the copy of x (before copying what x refers to,
// so cycles through x find it) and fills it.
func cloneTo[T any, P cloneable[T]](c *copier, k memoKey, x, out P) object.Value {
	c.memo[k] = out
	x.CloneInto(out, c)
	return out
}

func (c *copier) fail(v object.Value) object.Value {
	if c.err == nil {
		c.err = fmt.Errorf("cannot copy a %T", v)
	}
	return v
}

// CloneInto copies the cell c into dst.
func (c *Cell) CloneInto(dst *Cell, cl object.Cloner) { dst.V = cl.Clone(c.V) }

// CloneInto copies the module m into dst.
func (m *Module) CloneInto(dst *Module, c object.Cloner) {
	dst.Name = m.Name
	dst.Globals = c.CloneStrDict(m.Globals)
}

// CloneInto copies f into dst; the copy's inline caches start empty.
// Code is shared (it is never written after compilation); the caches
// are not copied, since they hold pointers into the original's classes
// and dicts, and an empty cache only costs speed, never charges.
func (f *Function) CloneInto(dst *Function, c object.Cloner) {
	dst.Code = f.Code
	dst.Globals = c.CloneStrDict(f.Globals)
	dst.Module = f.Module
	if f.extra != nil {
		x := dst.more()
		x.defaults = object.CloneValues(c, f.extra.defaults)
		if x.defaults == nil && f.extra.defaults != nil {
			x.defaults = object.Tuple{} // a stored () stays ()
		}
		if f.extra.kwDefaults != nil {
			x.kwDefaults, _ = c.Clone(f.extra.kwDefaults).(*object.Dict)
		}
		if f.extra.annotations != nil {
			x.annotations, _ = c.Clone(f.extra.annotations).(*object.Dict)
		}
	}
	if f.Closure != nil {
		dst.Closure = make([]*Cell, len(f.Closure))
		for i, cell := range f.Closure {
			if cell != nil {
				dst.Closure[i], _ = c.Clone(cell).(*Cell)
			}
		}
	}
	dst.Name = f.Name
	dst.QualName = f.QualName
	if f.extra != nil {
		dst.more().dict = c.CloneStrDict(f.extra.dict)
	}
	// gcache and acache: the caches start empty.
}

// sharedBuiltin reports whether b is one of the builtins every thread
// shares: a value of the builtins namespace or of a shared class's
// namespace (a builtin method), possibly wrapped. Other builtins come from
// modules written in Go, which are loaded per thread.
func sharedBuiltin(b *object.Builtin, builtins *object.StrDict) bool {
	sharedBuiltinOnce.Do(func() { findSharedBuiltins(builtins) })
	_, ok := sharedBuiltinSet[b]
	return ok
}

var (
	sharedBuiltinOnce sync.Once
	sharedBuiltinSet  map[*object.Builtin]struct{}
)

// The set is built once per process from the builtins namespace and the
// namespaces of the shared classes, unwrapping descriptors, so that a
// builtin method reached through a class copy is recognised as shared.
func findSharedBuiltins(builtins *object.StrDict) {
	set := map[*object.Builtin]struct{}{}
	var add func(v object.Value)
	add = func(v object.Value) {
		switch x := v.(type) {
		case *object.Builtin:
			set[x] = struct{}{}
		case *object.StaticMethod:
			add(x.Fn)
		case *object.ClassMethod:
			add(x.Fn)
		case *object.Property:
			add(x.Get)
			add(x.Set)
			add(x.Del)
		}
	}
	builtins.Each(func(_ string, v object.Value) { add(v) })
	for _, k := range object.SharedClasses() {
		k.Dict.Each(func(_ string, v object.Value) { add(v) })
	}
	sharedBuiltinSet = set
}

// SnapshotReplays is how many imports of the module were served from a
// snapshot in this process (0 for modules written in Go), for tests and
// benchmarks.
func (d ModuleDef) SnapshotReplays() uint64 {
	if d.snaps == nil {
		return 0
	}
	return d.snaps.replays.Load()
}

// copySizes counts the objects of each slab kind a copy makes.
type copySizes struct {
	fns, classes, insts, sdicts, props, cells, vals, keys int
}

// slab hands out the elements of one allocation; get falls back to new
// when it is used up.
// The copier's slab (not the thread's frame slab): the snapshot knows
// how many objects of each kind a copy makes, so one replay allocates
// each kind at once.
type slab[T any] struct{ free []T }

func (p *slab[T]) reserve(n int) { p.free = make([]T, n) }

func (p *slab[T]) get() *T {
	if len(p.free) == 0 {
		return new(T)
	}
	x := &p.free[0]
	p.free = p.free[1:]
	return x
}

// take returns n zero elements whose capacity is n, so that growing them
// later reallocates instead of running into a neighbour.
func (p *slab[T]) take(n int) []T {
	if n > len(p.free) {
		return make([]T, n)
	}
	x := p.free[:n:n]
	p.free = p.free[n:]
	return x
}

func (c *copier) reserve(s copySizes) {
	c.fns.reserve(s.fns)
	c.classes.reserve(s.classes)
	c.insts.reserve(s.insts)
	c.sdicts.reserve(s.sdicts)
	c.props.reserve(s.props)
	c.cells.reserve(s.cells)
	c.vals.reserve(s.vals)
	c.keys.reserve(s.keys)
}

// Values implements object.Cloner.
func (c *copier) Values(n int) []object.Value {
	c.sizes.vals += n
	return c.vals.take(n)
}

// Strings implements object.Cloner.
func (c *copier) Strings(n int) []string {
	c.sizes.keys += n
	return c.keys.take(n)
}
