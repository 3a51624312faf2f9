package vm

import (
	"sort"
	"unsafe"

	"github.com/cowboy-chain/cowboy/pvm/meter"
	"github.com/cowboy-chain/cowboy/pvm/object"
)

// The live-heap walk (technical spec v2 §3.2; docs/decisions.md "PVM: the
// live-heap limit"). The meter calls measureHeap when its allocation
// counter would pass the memory limit; the walk starts from the thread's
// roots, in a fixed order:
//  1. the running frames: the thread's slab, which holds the locals, value
//     stack, function and new cells of every ordinary call (in call order),
//     then the frames outside it (generators, class bodies, calls too deep
//     for the slab), outermost first, with their function, globals,
//     class-body namespace, locals, value stack and cells;
//  2. the exceptions being handled (sys.exc_info);
//  3. the modules imported by this call, by name;
//  4. the values the embedder holds (AddRoot: the actor instance, the call's
//     arguments and result);
//  5. the containers builtins are filling while they run Python code
//     (object.IterateInto: list(gen), set(gen), dict(gen)).
// Suspended generators are reached through the values that hold them, and
// their frames are walked like running ones.

// AddRoot keeps v in the live-heap walk's roots until the thread is
// released, for values the embedder holds outside Python frames.
func (t *Thread) AddRoot(v object.Value) { t.roots = append(t.roots, v) }

// PinHeap implements object.HeapPinner.
func (t *Thread) PinHeap(v object.Value) { t.pins = append(t.pins, v) }

// UnpinHeap implements object.HeapPinner.
func (t *Thread) UnpinHeap() {
	t.pins[len(t.pins)-1] = nil
	t.pins = t.pins[:len(t.pins)-1]
}

// measureHeap returns the model size of everything reachable from the
// roots, charging the walk to the meter.
func (t *Thread) measureHeap() (uint64, error) {
	w := object.NewHeapWalk(t.meter.Charge, t.walk)
	t.walk = w
	// The slab holds the locals, value stacks, functions and new cells
	// of the ordinary calls running now (callFunction); other frames are
	// in t.frames.
	w.Add(meter.SizePointer * uint64(t.sp))
	for _, v := range t.slab[:t.sp] {
		w.Visit(v)
	}
	for _, f := range t.frames {
		walkFrame(w, f)
	}
	for _, e := range t.handled {
		w.Visit(e)
	}
	names := make([]string, 0, len(t.cache))
	for name := range t.cache {
		names = append(names, name)
	}
	sort.Strings(names) // the walk's order, hence where an unpaid walk stops
	for _, name := range names {
		w.Visit(t.cache[name])
	}
	for _, v := range t.roots {
		w.Visit(v)
	}
	for _, v := range t.pins {
		w.Visit(v)
	}
	return w.Run()
}

// walkFrame counts a frame (its header and slots, as callFunction and
// makeGenerator charge them) and visits what it holds. Slots above the
// stack pointer may still hold a value the frame popped; they are visited
// too, which the interpreter decides the same way on every node.
func walkFrame(w *object.HeapWalk, f *frame) {
	if f == nil || !w.Mark(unsafe.Pointer(f)) {
		return
	}
	w.Add(meter.SizeFrame + meter.SizePointer*uint64(len(f.locals)+len(f.stack)+len(f.cells)))
	if f.fn != nil {
		w.Visit(f.fn)
	}
	w.VisitStrDict(f.globals)
	w.VisitStrDict(f.ns)
	for _, v := range f.locals {
		w.Visit(v)
	}
	for _, v := range f.stack {
		w.Visit(v)
	}
	for _, c := range f.cells {
		if c != nil {
			w.Visit(c)
		}
	}
}

// HeapRefs implements object.HeapRefs.
func (f *Function) HeapRefs(w *object.HeapWalk) uint64 {
	w.VisitStrDict(f.Globals)
	w.VisitStrDict(f.dict())
	for _, v := range f.defaults() {
		w.Visit(v)
	}
	if kwd := f.kwDefaults(); kwd != nil {
		w.Visit(kwd)
	}
	if a := f.annotations(); a != nil {
		w.Visit(a)
	}
	for _, c := range f.Closure {
		if c != nil {
			w.Visit(c)
		}
	}
	return meter.SizeFunction + meter.SizePointer*uint64(len(f.defaults())+len(f.Closure))
}

// HeapRefs implements object.HeapRefs.
func (c *Cell) HeapRefs(w *object.HeapWalk) uint64 {
	w.Visit(c.V)
	return meter.SizeObject + meter.SizePointer
}

// HeapRefs implements object.HeapRefs.
func (m *Module) HeapRefs(w *object.HeapWalk) uint64 {
	w.VisitStrDict(m.Globals)
	return meter.SizeObject + meter.SizePointer
}

// HeapRefs implements object.HeapRefs: the generator's frame, also once
// it has finished (what the frame still holds is still held in Go).
func (g *Generator) HeapRefs(w *object.HeapWalk) uint64 {
	walkFrame(w, &g.frame)
	return meter.SizeObject + 4*meter.SizePointer
}

// HeapRefs implements object.HeapRefs: the iterators and functions the
// lazy iterator was built from.
func (g *goIter) HeapRefs(w *object.HeapWalk) uint64 {
	for _, v := range g.refs {
		w.Visit(v)
	}
	return meter.SizeObject + meter.SizePointer*uint64(len(g.refs))
}
