package vm

import (
	"errors"
	"io"
	"sync"

	"github.com/cowboy-chain/cowboy/pvm/compile"
	"github.com/cowboy-chain/cowboy/pvm/meter"
	"github.com/cowboy-chain/cowboy/pvm/object"
)

// Thread is one execution of Python code: it implements object.Ctx for the
// operations it runs. A Thread is used by one goroutine at a time.
type Thread struct {
	meter   *meter.Meter
	stdout  io.Writer
	modules *Registry
	// cache holds the modules imported during this call, by name.
	cache    map[string]*Module
	builtins *object.StrDict
	nest     int
	// classEpoch invalidates the attribute lookup caches of this thread's
	// classes (see object.Class.EnableLookupCache).
	classEpoch uint64
	nextID     int64
	frameSeq   int64
	// handled is the stack of exceptions being handled by except blocks
	// (sys.exc_info), for bare raise and __context__.
	handled []*object.Instance
	// slab backs the locals and value stacks of non-generator frames so a
	// call does not allocate.
	slab []object.Value
	sp   int
	// fbox boxes the float fast path's results (floatArith).
	fbox object.FloatBox
	// plainAttrs turns off the attribute fast paths that stand in for
	// object.SetAttr and GetAttr (STORE_ATTR adding an attribute, attribute
	// and method lookups on classes; inline.go) so a test can compare
	// their charges with the slow paths'.
	plainAttrs bool
	// args and argTop are the argument stack of pushArgs.
	args   []object.Value
	argTop int
	// slice is the scratch slice of BUILD_SLICE (buildSlice).
	slice object.SliceObj
	// tmpList, its elements' array tmpBuf and tmpVal (tmpList while a
	// statement holds it, else nil) are the scratch list of sliceTemp.
	tmpList object.List
	tmpBuf  []object.Value
	tmpVal  object.Value
	// FS is the /tmp scratch space for open(); nil refuses all files.
	FS ScratchFS
	// frames are the frames running now outside the slab, outermost
	// first, and roots the values the embedder holds (AddRoot): with the
	// slab, the roots of the live-heap walk (heap.go).
	frames []*frame
	roots  []object.Value
	pins   []object.Value   // object.HeapPinner
	walk   *object.HeapWalk // the last walk, reused by the next
	// effects counts what a module snapshot cannot replay (output, file
	// opens); recorders are the imports being recorded (snapshot.go).
	effects   uint64
	recorders []*recorder
}

// Options configure a Thread.
type Options struct {
	Meter   *meter.Meter
	Stdout  io.Writer
	Modules *Registry // nil: no importable modules
	FS      ScratchFS // nil: open() refuses every path
}

// NewThread prepares a thread that charges m.
// The thread takes a slab from the pool and registers measureHeap as the
// meter's live-heap measurer, so a call's memory limit is checked against
// the objects this thread can reach. Its instance and frame counters
// (nextID, frameSeq) start at zero in every call: they number what the
// call makes, are visible to the program (identities in reprs, frames in
// tracebacks) and are part of a module snapshot's key.
func NewThread(o Options) *Thread {
	t := &Thread{meter: o.Meter, stdout: o.Stdout, modules: o.Modules, cache: map[string]*Module{}, FS: o.FS}
	if t.stdout == nil {
		t.stdout = io.Discard
	}
	if t.modules == nil {
		t.modules = NewRegistry()
	}
	t.builtins = sharedBuiltins()
	t.slab = *slabPool.Get().(*[]object.Value)
	if t.meter != nil {
		t.meter.SetMeasurer(t.measureHeap)
	}
	return t
}

// slabPool recycles frame slabs between calls: a chain runs thousands of
// short actor calls per block, and allocating (and zeroing) 256 KiB for
// each dominated their cost. A slab returns to the pool all nil, so no
// value of one call can be seen by another.
var slabPool = sync.Pool{New: func() any { s := make([]object.Value, 1<<14); return &s }}

// Release gives the thread's frame slab back for reuse. The thread must not
// run Python again.
func (t *Thread) Release() {
	if t.slab == nil {
		return
	}
	if t.sp != 0 {
		// A call was abandoned mid-frame (a recovered internal error):
		// frames did not clear their slots.
		clear(t.slab)
	}
	s := t.slab
	t.slab, t.sp = nil, 0
	t.frames, t.roots, t.pins, t.walk = nil, nil, nil, nil
	slabPool.Put(&s)
}

// Meter implements object.Ctx.
func (t *Thread) Meter() *meter.Meter { return t.meter }

// Nest implements object.Ctx.
// Nest is the PVM's Py_EnterRecursiveCall: object operations that call
// Python code from Go (comparisons, repr, hashing of instances) nest here,
// bounded by object.MaxNativeNesting, so that a deep chain of __eq__ or
// __repr__ calls ends in RecursionError at the same depth on every node
// instead of depending on the Go stack.
func (t *Thread) Nest() error {
	if t.nest >= object.MaxNativeNesting {
		return object.Errorf(object.RecursionError, "maximum recursion depth exceeded")
	}
	t.nest++
	return nil
}

// Unnest implements object.Ctx.
func (t *Thread) Unnest() { t.nest-- }

// NextID implements object.Ctx: identities count up from a fixed start so
// they never reveal memory addresses and are the same on every node.
func (t *Thread) NextID() int64 {
	t.nextID++
	return 0x1000 + t.nextID*16
}

// Builtins is the builtins namespace of this thread.
func (t *Thread) Builtins() *object.StrDict { return t.builtins }

// RunModule executes a compiled module in a fresh namespace named name and
// returns the namespace.
// The module's code runs as a function call with no arguments whose
// globals are the new namespace, which is how CPython executes a module's
// code object with exec in the module's __dict__.
func (t *Thread) RunModule(code *compile.Code, name string) (*Module, error) {
	g := object.NewStrDict()
	g.Set("__name__", object.Str(name))
	m := &Module{Name: name, Globals: g}
	fn := &Function{Code: code, Globals: g, Module: name, Name: code.Name, QualName: code.Name}
	_, err := t.callFunction(fn, nil, nil)
	return m, err
}

// PyError is an uncaught Python exception with its traceback text.
type PyError struct {
	Exc *object.Instance
	// Traceback is the full text Python would print to stderr.
	Traceback string
}

func (e *PyError) Error() string { return e.Traceback }

// LastLine is the final line of the traceback ("ValueError: msg").
func (e *PyError) LastLine() string { return object.ExceptionLine(nil, e.Exc) }

// Uncaught converts an error that escaped Python code into the error a
// caller sees: a *PyError with traceback for Python exceptions, the meter's
// error for OutOfCycles/OutOfCells, unchanged otherwise.
// The traceback text is formatted here, once, from the frames the
// exception recorded while unwinding (object.FormatTraceback), with
// CPython's layout.
func (t *Thread) Uncaught(err error) error {
	var exc *object.Exception
	if errors.As(err, &exc) {
		return &PyError{Exc: exc.Value, Traceback: object.FormatTraceback(t, exc.Value)}
	}
	return err
}

// BoxFloat returns f as a Value through the thread's FloatBox, for Go
// modules that return floats (math): one Go allocation per 16 results.
// The box is not marked as the last temporary (FloatBox.IsLast), since
// the caller's result may be kept anywhere.
func (t *Thread) BoxFloat(f object.Float) object.Value {
	v := t.fbox.Box(f)
	t.fbox.Forget()
	return v
}
