package object

import "unsafe"

// floatSlab is how many floats share one Go allocation in a FloatBox. A
// live float keeps its slab (8 * floatSlab bytes) alive, so the Go heap of
// a program holding n floats from n different slabs is at most floatSlab
// times what one allocation per float would use; 16 bounds that at 128
// bytes a float while cutting the allocations of float arithmetic 16-fold.
const floatSlab = 16

// FloatBox makes Values of Floats without one Go allocation per value.
// Converting a Float to a Value (an interface) copies it to the heap, 8
// bytes through the Go allocator for each arithmetic result; a FloatBox
// hands out the cells of a 16-float slab instead.
//
// It changes nothing a program or the meter can see: a Float in a Value is
// compared, hashed and sized by its value, never by its address (the
// live-heap walk counts floats as unboxed in their slot; `is` compares
// floats by value; id() refuses them), and no cycle or allocation charge
// is made here. Cells are written once, before they are handed out, so
// the Value's data stays immutable as the Go runtime requires.
//
// A FloatBox belongs to one thread of execution (not safe for concurrent
// use); the zero value is ready.
type FloatBox struct {
	slab *[floatSlab]Float
	n    int
	// last is the address of the cell of the Value Box returned last,
	// until Forget. That cell is in slab (Box sets both), which keeps it
	// alive, so no other cell can have its address while it is set; as a
	// uintptr, not a pointer, storing it costs no write barrier, which
	// Box would otherwise pay on every result while the collector marks.
	last uintptr
}

// floatItab is the interface table of Float as a Value, taken from the
// compiler's own conversion.
var floatItab = func() unsafe.Pointer {
	var v Value = Float(1.5)
	return (*ifaceWords)(unsafe.Pointer(&v)).tab
}()

// ifaceWords is the layout of a non-empty interface value.
type ifaceWords struct {
	tab  unsafe.Pointer
	data unsafe.Pointer
}

// Box returns f as a Value, the same value `Value(f)` gives.
func (b *FloatBox) Box(f Float) Value {
	if b.slab == nil || b.n == floatSlab {
		b.slab, b.n = new([floatSlab]Float), 0
	}
	p := &b.slab[b.n]
	b.n++
	*p = f
	b.last = uintptr(unsafe.Pointer(p))
	var v Value
	w := (*ifaceWords)(unsafe.Pointer(&v))
	w.tab, w.data = floatItab, unsafe.Pointer(p)
	return v
}

// IsLast reports whether v is the Value the last Box call returned (and
// Forget was not called since).
func (b *FloatBox) IsLast(v Value) bool {
	return b.last != 0 && uintptr((*ifaceWords)(unsafe.Pointer(&v)).data) == b.last
}

// Forget ends IsLast's answer for the last Value Box made, when code the
// caller does not follow may have stored it.
func (b *FloatBox) Forget() { b.last = 0 }

// Rebox writes f into the cell of v and returns v: the caller's way to
// reuse a temporary. v must be the last Value Box made (IsLast) and held
// by nothing but the one slot the caller is about to overwrite with the
// result, so no other holder sees its value change; this is the one
// exception to a cell being written once, and nothing in the Go runtime
// keeps a copy of a Value's data that it would expect to stay the same.
func (b *FloatBox) Rebox(v Value, f Float) Value {
	*(*Float)((*ifaceWords)(unsafe.Pointer(&v)).data) = f
	return v
}
