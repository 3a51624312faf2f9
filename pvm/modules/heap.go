package modules

import (
	"unsafe"

	"github.com/cowboy-chain/cowboy/pvm/meter"
	"github.com/cowboy-chain/cowboy/pvm/object"
)

// The live-heap walk (pvm/object/heapwalk.go) through the values of the Go
// modules that hold Python values or memory of their own: each counts the
// bytes its constructor charged and visits what it holds, so a pattern,
// match, iterator or hash object cannot keep a large str or bytes alive
// without it being counted.

// HeapRefs implements object.HeapRefs.
func (p *rePattern) HeapRefs(w *object.HeapWalk) uint64 {
	w.Visit(p.src)
	return meter.SizeObject + uint64(len(p.goPat))*16
}

// HeapRefs implements object.HeapRefs.
func (mt *reMatch) HeapRefs(w *object.HeapWalk) uint64 {
	w.Visit(mt.p)
	visitSubject(w, mt.sub)
	return meter.SizeObject + 48 + 8*uint64(len(mt.loc))
}

// HeapRefs implements object.HeapRefs.
func (it *reIter) HeapRefs(w *object.HeapWalk) uint64 {
	w.Visit(it.p)
	visitSubject(w, it.sub)
	return meter.SizeObject + 6*meter.SizePointer
}

// visitSubject visits the searched str or bytes; the code-point tables
// are counted as the re module charged them (12 bytes per character).
func visitSubject(w *object.HeapWalk, s *reSubject) {
	if s == nil {
		return
	}
	w.Visit(s.orig)
	if s.cpOf != nil && w.Mark(unsafe.Pointer(s)) {
		w.Add(12 * uint64(len(s.s)+1))
	}
}

// HeapRefs implements object.HeapRefs.
func (it *unpackIter) HeapRefs(w *object.HeapWalk) uint64 {
	return meter.SizeBytesHeader + uint64(len(it.b))
}

// HeapRefs implements object.HeapRefs.
func (o *hashObject) HeapRefs(w *object.HeapWalk) uint64 {
	return meter.SizeObject + uint64(o.algo.block) + 64 + uint64(len(o.key)+len(o.fed))
}
