package object

import (
	"maps"
	"slices"
	"unsafe"
)

// StrDict is an insertion-ordered string-keyed namespace used for class and
// instance attributes and module globals. Lookups go through a Go map, but
// order-dependent views (dir, __dict__) come from the keys slice, never from
// map iteration. A namespace of at most smallStrDict names (most instance
// dictionaries) has no map: its keys are scanned, which is cheaper than
// hashing and saves a Go map per instance. A deleted binding leaves a nil
// value at its position in either form.
type StrDict struct {
	index map[string]int
	keys  []string
	vals  []Value
	// layout changes whenever a name is added or removed, so a cached slot
	// position (see Slot) stays valid exactly while layout is unchanged.
	layout uint64
	// seen has the NameBit of every name ever added (deletions leave
	// their bits set), so a name whose bit is clear is certainly not
	// bound: LOAD_METHOD's shadowing check (is the method hidden by an
	// instance attribute?) is one AND instead of a scan of the keys.
	seen uint64
	// indexShared marks an index borrowed from a module snapshot's
	// namespace (clone.go), read by other threads too: the first change
	// of the names makes a private copy.
	indexShared bool
	// dead counts the deleted bindings still in keys. An int32 beside
	// indexShared keeps StrDict at 80 bytes, so an instance with its
	// dictionary and first four slots (instanceMem) is one 256-byte Go
	// allocation, not 288 (TestAllocSizes); no dictionary under the
	// 10 MiB memory limit holds 2^31 names.
	dead int32
}

// ownIndex makes the index private before a change of the names.
func (d *StrDict) ownIndex() {
	if d.indexShared {
		d.index = maps.Clone(d.index)
		d.indexShared = false
	}
}

// Layout is the current layout version, for slot caches.
func (d *StrDict) Layout() uint64 { return d.layout }

// Slot returns the position of name for use with At while Layout is
// unchanged.
func (d *StrDict) Slot(name string) (int, bool) { return d.find(name) }

// find returns the position name is bound at.
func (d *StrDict) find(name string) (int, bool) {
	if d.index == nil {
		for i, k := range d.keys {
			if len(k) == len(name) && d.vals[i] != nil && k == name {
				return i, true
			}
		}
		return 0, false
	}
	i, ok := d.index[name]
	return i, ok
}

// add appends a new binding, indexing the names once there are more than
// smallStrDict.
func (d *StrDict) add(name string, v Value) {
	d.layout++
	d.seen |= NameBit(name)
	if d.index == nil && len(d.keys) >= smallStrDict {
		d.index = make(map[string]int, len(d.keys)+1)
		for i, k := range d.keys {
			if d.vals[i] != nil {
				d.index[k] = i
			}
		}
		d.indexShared = false
	} else {
		d.ownIndex()
	}
	if d.index != nil {
		d.index[name] = len(d.keys)
	}
	if d.keys == nil {
		// Room for four names at once, rather than growing through 1, 2, 4.
		d.keys, d.vals = make([]string, 0, 4), make([]Value, 0, 4)
	}
	d.keys = append(d.keys, name)
	d.vals = append(d.vals, v)
}

// At returns the value at a position obtained from Slot.
func (d *StrDict) At(i int) Value { return d.vals[i] }

// KeyAt returns the name bound at a position obtained from Slot or a
// hint. The VM's inline caches keep it: comparing a name with the very
// string a dictionary holds ends at the pointer check, where the equal
// name from another code object is compared byte by byte.
func (d *StrDict) KeyAt(i int) string { return d.keys[i] }

// BoundAt is the value at position i if the name bound there is key
// itself (the same string data, as KeyAt returned it), else nil: the
// interpreter's cache hit, small enough to be inlined, where GetHinted
// compares the name's bytes.
func (d *StrDict) BoundAt(i int32, key string) Value {
	// One int index for the test and the reads, so that the compiler
	// proves the reads in bounds and checks nothing again.
	keys, vals := d.keys, d.vals
	if j := int(i); j >= 0 && j < len(keys) && j < len(vals) {
		if k := keys[j]; unsafe.StringData(k) == unsafe.StringData(key) && len(k) == len(key) {
			return vals[j]
		}
	}
	return nil
}

// RebindAt rebinds the name at position i to v and reports true if that
// name is key itself and bound (BoundAt's test), else changes nothing.
func (d *StrDict) RebindAt(i int32, key string, v Value) bool {
	keys, vals := d.keys, d.vals // one int index, as in BoundAt
	if j := int(i); j >= 0 && j < len(keys) && j < len(vals) {
		if k := keys[j]; unsafe.StringData(k) == unsafe.StringData(key) && len(k) == len(key) && vals[j] != nil {
			vals[j] = v
			return true
		}
	}
	return false
}

// NewStrDict returns an empty namespace.
func NewStrDict() *StrDict { return &StrDict{} }

// CopyShared returns a copy of d that borrows d's index until its own
// names change (as a module snapshot's copy does). d must never change
// afterwards: it is a template that threads copy.
func (d *StrDict) CopyShared() *StrDict {
	return &StrDict{index: d.index, keys: slices.Clone(d.keys), vals: slices.Clone(d.vals), dead: d.dead, layout: d.layout, seen: d.seen, indexShared: true}
}

// Get returns the value bound to name.
func (d *StrDict) Get(name string) (Value, bool) {
	i, ok := d.find(name)
	if !ok {
		return nil, false
	}
	return d.vals[i], true
}

// Has reports whether name is bound. Small namespaces (instance
// dictionaries, mostly) are scanned rather than hashed: comparing a few
// strings, most of which differ in length, is cheaper than hashing name.
func (d *StrDict) Has(name string) bool {
	if len(d.keys) <= smallStrDict {
		for i, k := range d.keys {
			if len(k) == len(name) && d.vals[i] != nil && k == name {
				return true
			}
		}
		return false
	}
	_, ok := d.find(name)
	return ok
}

// NameBit is name's bit in a namespace's filter of names added: one of
// 64, from its length and first and last bytes, which tell apart most
// attribute names of one instance.
func NameBit(name string) uint64 {
	n := uint(len(name))
	if n == 0 {
		return 1
	}
	return 1 << ((n + uint(name[0])*5 + uint(name[n-1])*11) & 63)
}

// MayHave reports false when no name with bit (from NameBit) was ever
// added, so none is bound; true means Has must decide.
func (d *StrDict) MayHave(bit uint64) bool { return d.seen&bit != 0 }

// smallStrDict is the size up to which Has scans keys instead of hashing.
const smallStrDict = 8

// GetHinted is Get with a position hint kept by the caller (an inline
// cache of the interpreter): when *hint is where name is bound, no hashing
// is needed; otherwise the hint is updated for next time. A position whose
// key is name and whose value is set is necessarily name's binding (a
// deleted binding leaves a nil value), so a stale hint is never trusted.
func (d *StrDict) GetHinted(name string, hint *int32) (Value, bool) {
	if i := int(*hint); i < len(d.keys) && d.keys[i] == name {
		if v := d.vals[i]; v != nil {
			return v, true
		}
	}
	i, ok := d.find(name)
	if !ok {
		return nil, false
	}
	*hint = int32(i)
	return d.vals[i], true
}

// SetHinted rebinds name, which must already be bound, using a position
// hint as GetHinted does; it reports false, changing nothing, when name is
// not bound (adding a binding is left to the caller, which may have to
// charge for it).
func (d *StrDict) SetHinted(name string, hint *int32, v Value) bool {
	if i := int(*hint); i < len(d.keys) && d.keys[i] == name && d.vals[i] != nil {
		d.vals[i] = v
		return true
	}
	i, ok := d.find(name)
	if !ok {
		return false
	}
	*hint = int32(i)
	d.vals[i] = v
	return true
}

// SetAt rebinds the name at a position obtained from Slot (while Layout
// is unchanged).
func (d *StrDict) SetAt(i int, v Value) { d.vals[i] = v }

// Set binds name.
func (d *StrDict) Set(name string, v Value) {
	if i, ok := d.find(name); ok {
		d.vals[i] = v
		return
	}
	d.add(name, v)
}

// Put binds name and reports whether it was newly added (one map lookup
// where Get followed by Set would take two).
func (d *StrDict) Put(name string, v Value) bool {
	if i, ok := d.find(name); ok {
		d.vals[i] = v
		return false
	}
	d.add(name, v)
	return true
}

// Delete unbinds name and reports whether it was bound.
func (d *StrDict) Delete(name string) bool {
	i, ok := d.find(name)
	if !ok {
		return false
	}
	d.layout++
	d.ownIndex()
	if d.index != nil {
		delete(d.index, name)
	}
	d.vals[i] = nil
	d.dead++
	if d.dead > 8 && int(d.dead)*2 > len(d.keys) {
		d.compact()
	}
	return true
}

func (d *StrDict) compact() {
	keys := d.keys[:0:0]
	vals := d.vals[:0:0]
	for i, k := range d.keys {
		if d.vals[i] == nil {
			continue
		}
		if d.index != nil {
			d.index[k] = len(keys)
		}
		keys = append(keys, k)
		vals = append(vals, d.vals[i])
	}
	d.keys, d.vals, d.dead = keys, vals, 0
}

// Len is the number of bindings.
func (d *StrDict) Len() int { return len(d.keys) - int(d.dead) }

// Each calls f for each binding in insertion order.
func (d *StrDict) Each(f func(name string, v Value)) {
	for i, k := range d.keys {
		if d.vals[i] != nil {
			f(k, d.vals[i])
		}
	}
}
