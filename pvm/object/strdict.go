package object

// StrDict is an insertion-ordered string-keyed namespace used for class and
// instance attributes and module globals. Lookups go through a Go map, but
// order-dependent views (dir, __dict__) come from the keys slice, never from
// map iteration.
type StrDict struct {
	index map[string]int
	keys  []string
	vals  []Value
	dead  int
	// layout changes whenever a name is added or removed, so a cached slot
	// position (see Slot) stays valid exactly while layout is unchanged.
	layout uint64
}

// Layout is the current layout version, for slot caches.
func (d *StrDict) Layout() uint64 { return d.layout }

// Slot returns the position of name for use with At while Layout is
// unchanged.
func (d *StrDict) Slot(name string) (int, bool) {
	i, ok := d.index[name]
	return i, ok
}

// At returns the value at a position obtained from Slot.
func (d *StrDict) At(i int) Value { return d.vals[i] }

// NewStrDict returns an empty namespace.
func NewStrDict() *StrDict { return &StrDict{index: map[string]int{}} }

// Get returns the value bound to name.
func (d *StrDict) Get(name string) (Value, bool) {
	i, ok := d.index[name]
	if !ok {
		return nil, false
	}
	return d.vals[i], true
}

// Set binds name.
func (d *StrDict) Set(name string, v Value) {
	if i, ok := d.index[name]; ok {
		d.vals[i] = v
		return
	}
	d.layout++
	d.index[name] = len(d.keys)
	d.keys = append(d.keys, name)
	d.vals = append(d.vals, v)
}

// Put binds name and reports whether it was newly added (one map lookup
// where Get followed by Set would take two).
func (d *StrDict) Put(name string, v Value) bool {
	if i, ok := d.index[name]; ok {
		d.vals[i] = v
		return false
	}
	d.layout++
	d.index[name] = len(d.keys)
	d.keys = append(d.keys, name)
	d.vals = append(d.vals, v)
	return true
}

// Delete unbinds name and reports whether it was bound.
func (d *StrDict) Delete(name string) bool {
	i, ok := d.index[name]
	if !ok {
		return false
	}
	d.layout++
	delete(d.index, name)
	d.vals[i] = nil
	d.dead++
	if d.dead > 8 && d.dead*2 > len(d.keys) {
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
		d.index[k] = len(keys)
		keys = append(keys, k)
		vals = append(vals, d.vals[i])
	}
	d.keys, d.vals, d.dead = keys, vals, 0
}

// Len is the number of bindings.
func (d *StrDict) Len() int { return len(d.index) }

// Each calls f for each binding in insertion order.
func (d *StrDict) Each(f func(name string, v Value)) {
	for i, k := range d.keys {
		if d.vals[i] != nil {
			f(k, d.vals[i])
		}
	}
}
