package object

import "github.com/cowboy-chain/cowboy/pvm/meter"

// hashtable is the insertion-ordered table behind dict, set and frozenset.
// Entries live in a slice in insertion order (deleted entries are tombstoned
// and compacted later); index maps a Python hash to the positions of the
// entries with that hash: index holds the first (almost always the only)
// one, more the others in insertion order, so an insertion allocates no
// position list. Go map iteration is never used, so order is
// deterministic.
//
// A table of at most smallTable entries (dead ones included) has no index:
// find scans the entries, comparing hashes, in insertion order, which is
// the order the index would visit the same-hash entries in, so the
// __eq__ calls made (and their cost) are the same either way. Most dicts
// and sets are that small, and a Go map per table was most of their cost.
type hashtable struct {
	entries []entry
	index   map[int64]int32
	more    map[int64][]int32
	live    int
	// version changes on insert/delete, so iterators detect mutation.
	version uint64
}

// entry is one slot of a hashtable. A deleted entry keeps its place
// with a nil key (dead); no live entry has a nil key. Without a flag of
// its own an entry is 40 bytes, not 48, and a set or dict with its small
// table (smallSet, a dict's first eight entries) a size class lower.
type entry struct {
	hash  int64
	key   Value
	value Value
}

// dead reports whether the entry was deleted.
func (e *entry) dead() bool { return e.key == nil }

// smallTable is the most entries a table keeps without an index.
const smallTable = 8

// buildIndex indexes the live entries, when a table outgrows smallTable.
func (h *hashtable) buildIndex() {
	h.index, h.more = make(map[int64]int32, len(h.entries)+1), nil
	for i, e := range h.entries {
		if !e.dead() {
			h.addPos(e.hash, int32(i))
		}
	}
}

// addPos records pos as the newest entry with hash.
func (h *hashtable) addPos(hash int64, pos int32) {
	if _, ok := h.index[hash]; !ok {
		h.index[hash] = pos
		return
	}
	if h.more == nil {
		h.more = map[int64][]int32{}
	}
	h.more[hash] = append(h.more[hash], pos)
}

// find returns the position of key, or -1. The entries with key's hash
// are compared in insertion order.
func (h *hashtable) find(c Ctx, key Value, hash int64) (int, error) {
	if h.index == nil {
		// An __eq__ may change the table: re-read its length each time.
		for i := 0; i < len(h.entries); i++ {
			if e := &h.entries[i]; e.hash != hash || e.dead() {
				continue
			}
			if pos, err := h.match(c, key, int32(i)); pos >= 0 || err != nil {
				return pos, err
			}
		}
		return -1, nil
	}
	first, ok := h.index[hash]
	if !ok {
		return -1, nil
	}
	if pos, err := h.match(c, key, first); pos >= 0 || err != nil {
		return pos, err
	}
	for _, p := range h.more[hash] {
		if pos, err := h.match(c, key, p); pos >= 0 || err != nil {
			return pos, err
		}
	}
	return -1, nil
}

// match returns pos if the entry there holds key, else -1.
func (h *hashtable) match(c Ctx, key Value, pos int32) (int, error) {
	e := &h.entries[pos]
	if e.dead() {
		return -1, nil
	}
	if identical(e.key, key) {
		return int(pos), nil
	}
	eq, err := Equal(c, e.key, key)
	if err != nil || !eq {
		return -1, err
	}
	return int(pos), nil
}

func (h *hashtable) lookup(c Ctx, key Value) (Value, bool, error) {
	hash, err := HashOf(c, key)
	if err != nil {
		return nil, false, err
	}
	pos, err := h.find(c, key, hash)
	if err != nil || pos < 0 {
		return nil, false, err
	}
	return h.entries[pos].value, true, nil
}

func (h *hashtable) insert(c Ctx, key, value Value, entrySize uint64) error {
	hash, err := HashOf(c, key)
	if err != nil {
		return err
	}
	pos, err := h.find(c, key, hash)
	if err != nil {
		return err
	}
	if pos >= 0 {
		h.entries[pos].value = value
		return nil
	}
	if err := Alloc(c, entrySize); err != nil {
		return err
	}
	if h.index == nil && len(h.entries) >= smallTable {
		h.buildIndex()
	}
	if h.index != nil {
		h.addPos(hash, int32(len(h.entries)))
	}
	if h.entries == nil {
		// Room for four at once, rather than growing through 1, 2, 4.
		h.entries = make([]entry, 0, 4)
	}
	h.entries = append(h.entries, entry{hash: hash, key: key, value: value})
	h.live++
	h.version++
	return nil
}

func (h *hashtable) remove(c Ctx, key Value) (Value, bool, error) {
	hash, err := HashOf(c, key)
	if err != nil {
		return nil, false, err
	}
	pos, err := h.find(c, key, hash)
	if err != nil || pos < 0 {
		return nil, false, err
	}
	v := h.entries[pos].value
	h.removeAt(pos)
	return v, true, nil
}

func (h *hashtable) removeAt(pos int) {
	e := &h.entries[pos]
	if h.index == nil {
		e.key, e.value = nil, nil
		h.live--
		h.version++
		return
	}
	idx := h.more[e.hash]
	if int(h.index[e.hash]) == pos {
		// The first goes; the next, if any, takes its place.
		if len(idx) == 0 {
			delete(h.index, e.hash)
		} else {
			h.index[e.hash] = idx[0]
			idx = idx[1:]
		}
	} else {
		for i, p := range idx {
			if int(p) == pos {
				idx = append(idx[:i:i], idx[i+1:]...)
				break
			}
		}
	}
	if len(idx) == 0 {
		delete(h.more, e.hash)
	} else {
		h.more[e.hash] = idx
	}
	e.key, e.value = nil, nil
	h.live--
	h.version++
	if dead := len(h.entries) - h.live; dead > 16 && dead*2 > len(h.entries) {
		h.compact()
	}
}

func (h *hashtable) compact() {
	out := make([]entry, 0, h.live)
	for _, e := range h.entries {
		if !e.dead() {
			out = append(out, e)
		}
	}
	h.entries = out
	h.buildIndex()
}

func (h *hashtable) clear() {
	h.entries, h.index, h.more, h.live = nil, nil, nil, 0
	h.version++
}

// keys returns the live keys in insertion order.
func (h *hashtable) keys() []Value {
	out := make([]Value, 0, h.live)
	for _, e := range h.entries {
		if !e.dead() {
			out = append(out, e.key)
		}
	}
	return out
}

// Dict is a Python dict: insertion ordered, keyed by hash and __eq__.
//
// A dict made by AttrDict is instead the live view of an attribute
// namespace (ns): an instance's or a function's __dict__. CPython's
// __dict__ is the attribute storage itself, so a store into it is an
// attribute store and the reverse; here the storage stays the StrDict
// (the interpreter's caches, the live-heap walk and actor state read it)
// and such a dict reads and writes it, its own table staying empty.
type Dict struct {
	ht hashtable
	ns *StrDict
}

// AttrDict returns the __dict__ of an object whose attributes live in ns.
// Its keys must be str (the namespace is string-keyed); a store of
// another key is refused.
func AttrDict(c Ctx, ns *StrDict) (*Dict, error) {
	if err := Alloc(c, meter.SizeObject+meter.SizePointer); err != nil {
		return nil, err
	}
	return &Dict{ns: ns}, nil
}

// nsKey is the attribute name key stands for in an attribute dict, ok
// false for a key that is no str (hashed first, so that an unhashable
// key is the TypeError any dict raises).
func nsKey(c Ctx, key Value) (name string, ok bool, err error) {
	switch k := key.(type) {
	case Str:
		return string(k), true, nil
	case *Instance:
		if s, isStr := k.Base.(Str); isStr {
			return string(s), true, nil
		}
	}
	_, err = HashOf(c, key)
	return "", false, err
}

// NewDict returns an empty dict.
func NewDict() *Dict { return &Dict{} }

// Type implements Value.
func (*Dict) Type() *Class { return DictClass }

// Truth implements Value.
func (d *Dict) Truth(Ctx) (bool, error) { return d.Len() > 0, nil }

// Hash implements Value.
func (*Dict) Hash(Ctx) (int64, error) { return 0, Errorf(TypeError, "unhashable type: 'dict'") }

// Len is len(d).
func (d *Dict) Len() int {
	if d.ns != nil {
		return d.ns.Len()
	}
	return d.ht.live
}

// Repr implements Value.
func (d *Dict) Repr(c Ctx) (string, error) {
	if err := c.Nest(); err != nil {
		return "", err
	}
	defer c.Unnest()
	entries := d.ht.entries
	if d.ns != nil {
		for _, kv := range d.Items() {
			entries = append(entries, entry{key: kv[0], value: kv[1]})
		}
	}
	buf := []byte{'{'}
	first := true
	for i := 0; i < len(entries); i++ {
		if d.ns == nil {
			// A key's or value's __repr__ may change the table: re-read it.
			entries = d.ht.entries
			if i >= len(entries) {
				break
			}
		}
		e := entries[i]
		if e.dead() {
			continue
		}
		if !first {
			buf = append(buf, ", "...)
		}
		first = false
		k, err := reprNested(c, e.key, d)
		if err != nil {
			return "", err
		}
		v, err := reprNested(c, e.value, d)
		if err != nil {
			return "", err
		}
		buf = append(buf, k...)
		buf = append(buf, ": "...)
		buf = append(buf, v...)
	}
	return string(append(buf, '}')), nil
}

// Get returns d[key].
func (d *Dict) Get(c Ctx, key Value) (Value, bool, error) {
	if d.ns != nil {
		name, ok, err := nsKey(c, key)
		if !ok {
			return nil, false, err
		}
		v, ok := d.ns.Get(name)
		return v, ok, nil
	}
	return d.ht.lookup(c, key)
}

// Set does d[key] = value. A new name in an attribute dict is charged
// as a new attribute is (chargeNewAttr).
func (d *Dict) Set(c Ctx, key, value Value) error {
	if d.ns != nil {
		name, ok, err := nsKey(c, key)
		if err != nil {
			return err
		}
		if !ok {
			return Errorf(TypeError, "attribute dictionary keys must be str in the PVM, not '%s'", TypeName(key))
		}
		if d.ns.Put(name, value) {
			if err := Alloc(c, meter.SizeDictEntry); err != nil {
				d.ns.Delete(name)
				return err
			}
		}
		return nil
	}
	return d.ht.insert(c, key, value, meter.SizeDictEntry)
}

// Delete removes key, reporting whether it was present.
func (d *Dict) Delete(c Ctx, key Value) (Value, bool, error) {
	if d.ns != nil {
		name, ok, err := nsKey(c, key)
		if !ok {
			return nil, false, err
		}
		v, ok := d.ns.Get(name)
		if ok {
			d.ns.Delete(name)
		}
		return v, ok, nil
	}
	return d.ht.remove(c, key)
}

// Keys returns the keys in insertion order.
func (d *Dict) Keys() []Value {
	if d.ns != nil {
		out := make([]Value, 0, d.ns.Len())
		d.ns.Each(func(name string, _ Value) { out = append(out, Str(name)) })
		return out
	}
	return d.ht.keys()
}

// Items returns (key, value) pairs in insertion order.
func (d *Dict) Items() [][2]Value {
	if d.ns != nil {
		out := make([][2]Value, 0, d.ns.Len())
		d.ns.Each(func(name string, v Value) { out = append(out, [2]Value{Str(name), v}) })
		return out
	}
	out := make([][2]Value, 0, d.ht.live)
	for _, e := range d.ht.entries {
		if !e.dead() {
			out = append(out, [2]Value{e.key, e.value})
		}
	}
	return out
}

// Set is a Python set or frozenset. The spec replaces Python's unordered sets
// with ordered sets, so iteration follows insertion order.
type Set struct {
	ht     hashtable
	Frozen bool
}

// smallSet is a Set allocated together with room for a small table.
type smallSet struct {
	Set
	arr [smallTable]entry
}

// NewSet returns an empty set (frozen for frozenset).
func NewSet(frozen bool) *Set { return &Set{Frozen: frozen} }

// Type implements Value.
func (s *Set) Type() *Class {
	if s.Frozen {
		return FrozenSetClass
	}
	return SetClass
}

// Truth implements Value.
func (s *Set) Truth(Ctx) (bool, error) { return s.ht.live > 0, nil }

// Len is len(s).
func (s *Set) Len() int { return s.ht.live }

// Hash implements Value: frozensets hash by content, order-independently.
func (s *Set) Hash(c Ctx) (int64, error) {
	if !s.Frozen {
		return 0, Errorf(TypeError, "unhashable type: 'set'")
	}
	var h uint64 = 1927868237
	for _, e := range s.ht.entries {
		if !e.dead() {
			x := uint64(e.hash)
			h ^= (x ^ (x << 16) ^ 89869747) * 3644798167
		}
	}
	h = h*69069 + 907133923
	return int64(h >> 1), nil
}

// Repr implements Value.
func (s *Set) Repr(c Ctx) (string, error) {
	name := "set"
	if s.Frozen {
		name = "frozenset"
	}
	if s.ht.live == 0 {
		return name + "()", nil
	}
	if err := c.Nest(); err != nil {
		return "", err
	}
	defer c.Unnest()
	buf := []byte{'{'}
	first := true
	for _, e := range s.ht.entries {
		if e.dead() {
			continue
		}
		if !first {
			buf = append(buf, ", "...)
		}
		first = false
		r, err := Repr(c, e.key)
		if err != nil {
			return "", err
		}
		buf = append(buf, r...)
	}
	buf = append(buf, '}')
	if s.Frozen {
		return "frozenset(" + string(buf) + ")", nil
	}
	return string(buf), nil
}

// Add inserts x.
func (s *Set) Add(c Ctx, x Value) error { return s.ht.insert(c, x, nil, meter.SizeSetEntry) }

// Has reports whether x is a member.
func (s *Set) Has(c Ctx, x Value) (bool, error) {
	_, ok, err := s.ht.lookup(c, x)
	return ok, err
}

// Remove deletes x, reporting whether it was present.
func (s *Set) Remove(c Ctx, x Value) (bool, error) {
	_, ok, err := s.ht.remove(c, x)
	return ok, err
}

// Elems returns the members in insertion order.
func (s *Set) Elems() []Value { return s.ht.keys() }

// hashIter iterates a dict's keys/values/items or a set's members.
type hashIter struct {
	ht      *hashtable
	pos     int
	version uint64
	kind    int // 0 keys, 1 values, 2 items
	isSet   bool
}

// Type implements Value.
func (it *hashIter) Type() *Class { return IteratorClass }

// Repr implements Value.
func (it *hashIter) Repr(Ctx) (string, error) { return "<dict_keyiterator object>", nil }

// Truth implements Value.
func (it *hashIter) Truth(Ctx) (bool, error) { return true, nil }

// Hash implements Value.
func (it *hashIter) Hash(Ctx) (int64, error) { return 0x69746572, nil }

// Next implements Iterator.
func (it *hashIter) Next(c Ctx) (Value, bool, error) {
	if it.ht.version != it.version {
		if it.isSet {
			return nil, false, Errorf(RuntimeError, "Set changed size during iteration")
		}
		return nil, false, Errorf(RuntimeError, "dictionary changed size during iteration")
	}
	for it.pos < len(it.ht.entries) {
		e := it.ht.entries[it.pos]
		it.pos++
		if e.dead() {
			continue
		}
		switch it.kind {
		case 1:
			return e.value, true, nil
		case 2:
			return Tuple{e.key, e.value}, true, nil
		}
		return e.key, true, nil
	}
	return nil, false, nil
}

func newHashIter(h *hashtable, kind int, isSet bool) *hashIter {
	return &hashIter{ht: h, version: h.version, kind: kind, isSet: isSet}
}

// nsIter iterates an attribute dict's keys, values or items (AttrDict):
// the namespace's bindings in order, refusing to go on once a name was
// added or removed (the dictionary's size changed, as hashIter refuses).
type nsIter struct {
	ns     *StrDict
	pos    int
	layout uint64
	kind   int // 0 keys, 1 values, 2 items
}

// Type implements Value.
func (it *nsIter) Type() *Class { return IteratorClass }

// Repr implements Value.
func (it *nsIter) Repr(Ctx) (string, error) { return "<dict_keyiterator object>", nil }

// Truth implements Value.
func (it *nsIter) Truth(Ctx) (bool, error) { return true, nil }

// Hash implements Value.
func (it *nsIter) Hash(Ctx) (int64, error) { return 0x69746572, nil }

// Next implements Iterator.
func (it *nsIter) Next(c Ctx) (Value, bool, error) {
	if it.ns.layout != it.layout {
		return nil, false, Errorf(RuntimeError, "dictionary changed size during iteration")
	}
	for it.pos < len(it.ns.keys) {
		k, v := it.ns.keys[it.pos], it.ns.vals[it.pos]
		it.pos++
		if v == nil {
			continue
		}
		switch it.kind {
		case 1:
			return v, true, nil
		case 2:
			return Tuple{Str(k), v}, true, nil
		}
		return Str(k), true, nil
	}
	return nil, false, nil
}

// left is the number of bindings the iterator has still to give.
func (it *nsIter) left() int {
	if it.ns.layout != it.layout {
		return 0
	}
	n := 0
	for _, v := range it.ns.vals[min(it.pos, len(it.ns.vals)):] {
		if v != nil {
			n++
		}
	}
	return n
}

// dictIter iterates d's keys, values or items (kind as in DictView).
func dictIter(d *Dict, kind int) Value {
	if d.ns != nil {
		return &nsIter{ns: d.ns, layout: d.ns.layout, kind: kind}
	}
	return newHashIter(&d.ht, kind, false)
}

// DictView is dict.keys(), dict.values() or dict.items().
type DictView struct {
	D    *Dict
	Kind int // 0 keys, 1 values, 2 items
}

var viewNames = [3]string{"dict_keys", "dict_values", "dict_items"}

// Type implements Value.
func (v *DictView) Type() *Class { return DictViewClasses[v.Kind] }

// Repr implements Value.
func (v *DictView) Repr(c Ctx) (string, error) {
	l, err := ListOf(c, v)
	if err != nil {
		return "", err
	}
	r, err := l.Repr(c)
	return viewNames[v.Kind] + "(" + r + ")", err
}

// Truth implements Value.
func (v *DictView) Truth(Ctx) (bool, error) { return v.D.Len() > 0, nil }

// Hash implements Value.
func (v *DictView) Hash(Ctx) (int64, error) {
	return 0, Errorf(TypeError, "unhashable type: '%s'", viewNames[v.Kind])
}

// Len is the dict's length.
func (v *DictView) Len() int { return v.D.Len() }
