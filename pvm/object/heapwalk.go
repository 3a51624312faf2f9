package object

import (
	"reflect"
	"unsafe"

	"github.com/cowboy-chain/cowboy/pvm/meter"
)

// Live-heap measurement (technical spec v2 §3.2 and §12.1: "per-call memory
// limit: 10 MiB heap memory"; docs/decisions.md "PVM: the live-heap limit").
//
// A HeapWalk sums the model sizes (the pvm/meter Size* table, the same table
// the allocation counter uses) of every distinct object reachable from the
// roots it is given. The total is a function of the object graph only:
//   - every object is counted once, whatever the order of the walk, because
//     the visited set is keyed by identity and a sum over a set does not
//     depend on the order its elements were added in;
//   - an object's size comes from its Python-visible contents (lengths,
//     entry counts, bit lengths), never from Go capacities or addresses;
//   - values stored unboxed in their slot (int in int64 range, float, bool,
//     None) are part of the slot's 8 bytes, as the allocation counter has
//     always treated them, so they have no identity to depend on;
//   - str, bytes and tuple are Go values without a pointer of their own;
//     their identity is their backing array and length, which only the
//     deterministic Go code that made them decides (a substring is a new
//     str, as in the size model).
//
// Pointer values are only compared for equality (set membership), never
// ordered or printed, so their numeric values cannot reach the total.
//
// The walk charges its cost as it goes (CostHeapWalkPerRef for every
// reference examined and CostHeapWalkPerObject for every distinct object
// counted) so a walk the call cannot pay for stops at the first batch it
// cannot pay.
type HeapWalk struct {
	// seenP holds the pointer-shaped objects, seen the others (str, bytes,
	// tuples, namespaces, tables), whose keys need a length or tag.
	seenP map[unsafe.Pointer]struct{}
	seen  map[heapKey]struct{}
	work  []any
	pay   func(uint64) error
	owed  uint64
	err   error
	bytes uint64
	// Objects and Refs are the distinct objects counted and the references
	// examined so far.
	Objects, Refs uint64
}

type heapKey struct {
	p unsafe.Pointer
	n int
}

// HeapRefs is implemented by values defined outside this package that own
// memory or hold other values (functions, generators, modules, iterators
// written in Go). HeapRefs returns the value's own model size in bytes and
// hands every value it holds to w.Visit (and its namespaces to
// w.VisitStrDict). It must not allocate Python objects or run Python code.
type HeapRefs interface {
	HeapRefs(w *HeapWalk) uint64
}

// walkBatch is how many cycles of walk cost accumulate before they are
// charged: small enough that an unpayable walk stops early, large enough
// that charging is not the walk's cost.
const walkBatch = 1024

// NewHeapWalk starts a measurement that charges its cycles through pay.
// prev, when not nil, is a finished walk whose memory (visited set, work
// list) is reused.
func NewHeapWalk(pay func(cycles uint64) error, prev *HeapWalk) *HeapWalk {
	if prev == nil {
		return &HeapWalk{seenP: make(map[unsafe.Pointer]struct{}, 1024), seen: make(map[heapKey]struct{}, 1024), pay: pay}
	}
	clear(prev.seenP)
	clear(prev.seen)
	*prev = HeapWalk{seenP: prev.seenP, seen: prev.seen, work: prev.work[:0], pay: pay}
	return prev
}

// Add counts n bytes that belong to no Python value (a frame's slots).
func (w *HeapWalk) Add(n uint64) { w.bytes += n }

// Mark records p as visited and reports whether it was new; callers use it
// for Go structures that are not Python values (frames).
func (w *HeapWalk) Mark(p unsafe.Pointer) bool {
	// Tagged apart from values: a Go structure may start at the address
	// of the value that contains it.
	return w.mark(heapKey{p: p, n: -3})
}

func (w *HeapWalk) markP(p unsafe.Pointer) bool {
	if _, ok := w.seenP[p]; ok {
		return false
	}
	w.seenP[p] = struct{}{}
	w.Objects++
	w.cost(meter.CostHeapWalkPerObject)
	return true
}

func (w *HeapWalk) mark(k heapKey) bool {
	if _, ok := w.seen[k]; ok {
		return false
	}
	w.seen[k] = struct{}{}
	w.Objects++
	w.cost(meter.CostHeapWalkPerObject)
	return true
}

func (w *HeapWalk) cost(n uint64) {
	w.owed += n
	if w.owed >= walkBatch && w.err == nil {
		w.err = w.pay(w.owed)
		w.owed = 0
	}
}

// Visit counts v and, through the work list, everything it holds.
func (w *HeapWalk) Visit(v Value) {
	if v == nil || w.err != nil {
		return
	}
	w.Refs++
	w.cost(meter.CostHeapWalkPerRef)
	switch x := v.(type) {
	case Int, Float, Bool, NoneType:
		// Unboxed in their slot.
	case Str:
		if len(x) == 0 {
			return // the empty str is a singleton
		}
		if w.mark(heapKey{p: unsafe.Pointer(unsafe.StringData(string(x))), n: len(x)}) {
			w.bytes += meter.SizeStrHeader + uint64(len(x))
		}
	case Bytes:
		if len(x) == 0 {
			return
		}
		if w.mark(heapKey{p: unsafe.Pointer(unsafe.StringData(string(x))), n: -len(x)}) {
			w.bytes += meter.SizeBytesHeader + uint64(len(x))
		}
	case Tuple:
		if len(x) == 0 {
			return // the empty tuple is a singleton
		}
		// The key's length is offset so a tuple never shares a key with a
		// str or bytes whose data happens to start at the same address.
		if w.mark(heapKey{p: unsafe.Pointer(unsafe.SliceData(x)), n: len(x) + 1<<40}) {
			w.bytes += meter.SizeTupleHeader + meter.SizePointer*uint64(len(x))
			w.work = append(w.work, v) // v, not x: re-boxing x would allocate
		}
	default:
		p, ok := pointerOf(v)
		if !ok {
			// A non-pointer value of a type this walk does not know: it
			// lives in its slot.
			return
		}
		if w.markP(p) {
			w.work = append(w.work, v)
		}
	}
}

// pointerOf returns the identity of a value whose dynamic type is a
// pointer, or ok false for values stored by value.
func pointerOf(v Value) (unsafe.Pointer, bool) {
	switch x := v.(type) {
	case *List:
		return unsafe.Pointer(x), true
	case *Dict:
		return unsafe.Pointer(x), true
	case *Instance:
		return unsafe.Pointer(x), true
	case *Class:
		return unsafe.Pointer(x), true
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer {
		return nil, false
	}
	return rv.UnsafePointer(), true
}

// VisitStrDict counts a namespace (instance, class or module dict) once and
// visits its values. Keys are attribute names, counted in the entry size.
func (w *HeapWalk) VisitStrDict(d *StrDict) {
	if d == nil || w.err != nil {
		return
	}
	w.Refs++
	w.cost(meter.CostHeapWalkPerRef)
	if w.mark(heapKey{p: unsafe.Pointer(d), n: -1}) {
		w.bytes += meter.SizeDictHeader + meter.SizeDictEntry*uint64(d.Len())
		w.work = append(w.work, d)
	}
}

// Run drains the work list and returns the bytes counted, or the error the
// cost charge returned (then the total is meaningless).
func (w *HeapWalk) Run() (uint64, error) {
	for len(w.work) > 0 && w.err == nil {
		it := w.work[len(w.work)-1]
		w.work[len(w.work)-1] = nil
		w.work = w.work[:len(w.work)-1]
		w.expand(it)
	}
	if w.err == nil && w.owed > 0 {
		w.err = w.pay(w.owed)
		w.owed = 0
	}
	return w.bytes, w.err
}

// expand adds the size of a marked object and visits what it holds.
func (w *HeapWalk) expand(it any) {
	switch x := it.(type) {
	case Tuple:
		for _, e := range x {
			w.Visit(e)
		}
	case *StrDict:
		for _, v := range x.vals {
			w.Visit(v) // a deleted binding is nil
		}
	case *List:
		w.bytes += meter.SizeListHeader + meter.SizePointer*uint64(len(x.Elems))
		for _, e := range x.Elems {
			w.Visit(e)
		}
	case *Dict:
		if x.ns != nil {
			// An attribute dict: a reference to a namespace counted
			// where it lives (AttrDict charged as much).
			w.bytes += meter.SizeObject + meter.SizePointer
			w.VisitStrDict(x.ns)
			return
		}
		w.bytes += meter.SizeDictHeader
		w.visitTable(&x.ht, meter.SizeDictEntry)
	case *Set:
		w.bytes += meter.SizeDictHeader
		w.visitTable(&x.ht, meter.SizeSetEntry)
	case *BigInt:
		w.bytes += meter.SizeIntHeader + 4*uint64((x.v.BitLen()+29)/30)
	case *ByteArray:
		w.bytes += meter.SizeBytesHeader + uint64(len(x.B))
	case *Instance:
		w.bytes += meter.SizeInstance
		w.Visit(x.Class)
		w.VisitStrDict(x.Dict)
		w.Visit(x.Base)
		if e := x.Exc; e != nil {
			w.Visit(e.Args)
			w.Visit(e.Cause)
			w.Visit(e.Context)
			w.Visit(e.SuggestObj)
			for _, d := range e.SuggestScopes {
				w.VisitStrDict(d)
			}
		}
	case *Class:
		if x.builtinType || x.Module == "builtins" {
			return // shared by every call, never allocated by one
		}
		w.bytes += meter.SizeInstance + meter.SizePointer*uint64(len(x.Bases)+len(x.MRO))
		w.VisitStrDict(x.Dict)
		for _, b := range x.Bases {
			w.Visit(b)
		}
		for _, b := range x.MRO {
			w.Visit(b)
		}
		if x.Meta != nil {
			w.Visit(x.Meta)
		}
	case *BoundMethod:
		w.bytes += meter.SizeObject + 2*meter.SizePointer
		w.Visit(x.Self)
		w.Visit(x.Fn)
	case *Property:
		w.bytes += meter.SizeObject + 3*meter.SizePointer
		w.Visit(x.Get)
		w.Visit(x.Set)
		w.Visit(x.Del)
	case *StaticMethod:
		w.bytes += meter.SizeObject + meter.SizePointer
		w.Visit(x.Fn)
	case *ClassMethod:
		w.bytes += meter.SizeObject + meter.SizePointer
		w.Visit(x.Fn)
	case *Super:
		w.bytes += meter.SizeObject + 2*meter.SizePointer
		w.Visit(x.Start)
		w.Visit(x.Obj)
	case *SliceObj:
		w.bytes += meter.SizeObject + 3*meter.SizePointer
		w.Visit(x.Start)
		w.Visit(x.Stop)
		w.Visit(x.Step)
	case *GenericAlias:
		w.bytes += meter.SizeObject + 2*meter.SizePointer
		if x.Origin != nil {
			w.Visit(x.Origin)
		}
		w.Visit(x.Args)
	case *DictView:
		w.bytes += meter.SizeObject + meter.SizePointer
		w.Visit(x.D)
	case *seqIter:
		w.bytes += meter.SizeObject + meter.SizePointer
		w.Visit(x.seq)
	case *getitemIter:
		w.bytes += meter.SizeObject + meter.SizePointer
		w.Visit(x.obj)
	case *nsIter:
		w.bytes += meter.SizeObject + meter.SizePointer
		w.VisitStrDict(x.ns)
	case *hashIter:
		w.bytes += meter.SizeObject + meter.SizePointer
		entry := meter.SizeDictEntry
		if x.isSet {
			entry = meter.SizeSetEntry
		}
		w.visitTable(x.ht, entry)
	case *Builtin, *Singleton:
		// Shared by every call (builtin functions and constants) or
		// bound to shared classes: never allocated by one call.
	case HeapRefs:
		w.bytes += x.HeapRefs(w)
	default:
		w.bytes += meter.SizeObject
	}
}

// visitTable counts the live entries of a dict or set table (entry bytes
// each) and visits them. The table is its own node so that an iterator
// holding the only reference to a dict's table still counts it, once.
func (w *HeapWalk) visitTable(h *hashtable, entry uint64) {
	if !w.mark(heapKey{p: unsafe.Pointer(h), n: -2}) {
		return
	}
	w.bytes += entry * uint64(h.live)
	for i := range h.entries {
		e := &h.entries[i]
		if e.dead() {
			continue
		}
		w.Visit(e.key)
		w.Visit(e.value)
	}
}

// HeapPinner is implemented by contexts that measure the live heap (the
// VM's thread): a builtin that builds a container while running Python
// code (list(gen), set(gen), dict.update(gen)) pins the container so the
// walk counts it before it is stored anywhere else.
type HeapPinner interface {
	// PinHeap adds v to the walk's roots until the matching UnpinHeap.
	PinHeap(v Value)
	// UnpinHeap removes the value pinned last.
	UnpinHeap()
}

// IterateInto is Iterate while holder, the container f fills, is pinned as
// a root of the live-heap walk.
func IterateInto(c Ctx, v, holder Value, f func(Value) error) error {
	p, ok := c.(HeapPinner)
	if !ok {
		return Iterate(c, v, f)
	}
	p.PinHeap(holder)
	err := Iterate(c, v, f)
	p.UnpinHeap()
	return err
}
