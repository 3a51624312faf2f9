package object

import "maps"

// Deep copies of object graphs, for module snapshots (pvm/vm/snapshot.go):
// the state a whitelisted module leaves after its first import is copied
// into every later call instead of running the module again.
//
// Each CloneInto method fills a freshly allocated zero value dst from its
// receiver, asking the Cloner for every value it refers to. The Cloner
// memoizes, so shared and cyclic references come out shared and cyclic
// exactly as in the original: a copy is indistinguishable from the graph a
// fresh run of the module builds, also to the live-heap walk, which counts
// objects by identity. The receiver is only read, never modified, so one
// snapshot can be copied by many goroutines at once.
//
// Every field of a copied struct is either copied or, for caches that
// change no result and no charge, deliberately left empty; the snapshot
// tests fill every field by reflection and fail when a new field is
// neither.

// Cloner copies the values a clone refers to.
type Cloner interface {
	// Clone returns the copy of v (v itself for immutable and shared
	// values); nil stays nil.
	Clone(v Value) Value
	// CloneClass returns the copy of k (k itself for shared builtin
	// classes); nil stays nil.
	CloneClass(k *Class) *Class
	// CloneStrDict returns the copy of d; nil stays nil.
	CloneStrDict(d *StrDict) *StrDict
	// ClassEpoch is the lookup-cache epoch of the thread receiving the
	// copies (see Class.EnableLookupCache).
	ClassEpoch() *uint64
	// ShareIndexes reports whether copied namespaces may borrow the
	// original's name index until their names change: only when the
	// original is never changed again (a snapshot's pristine copy).
	ShareIndexes() bool
	// Values and Strings return n zero elements of capacity n, which the
	// cloner may carve from one allocation.
	Values(n int) []Value
	Strings(n int) []string
}

// sharedClasses lists the builtin classes, created once per process at
// package initialisation and never mutated afterwards: every thread uses
// the same ones, so copies refer to them rather than copying them.
var sharedClasses []*Class

// MarkShared records k as a builtin class shared by all threads, for
// classes built outside this package at initialisation (the VM's iterator
// types). Python code must not be able to mutate k.
func MarkShared(k *Class) {
	if !k.shared {
		k.shared = true
		sharedClasses = append(sharedClasses, k)
	}
}

// Shared reports whether k is a builtin class shared by all threads.
func (k *Class) Shared() bool { return k.shared }

// SharedClasses returns the classes marked shared, in the order they were
// created.
func SharedClasses() []*Class { return sharedClasses }

func cloneClasses(c Cloner, ks []*Class) []*Class {
	if ks == nil {
		return nil
	}
	out := make([]*Class, len(ks))
	for i, k := range ks {
		out[i] = c.CloneClass(k)
	}
	return out
}

// CloneValues copies a slice of values through c (nil stays nil).
func CloneValues(c Cloner, vs []Value) []Value {
	if vs == nil {
		return nil
	}
	out := c.Values(len(vs))
	for i, v := range vs {
		out[i] = c.Clone(v)
	}
	return out
}

func cloneTuple(c Cloner, t Tuple) Tuple {
	if t == nil {
		return nil
	}
	v, _ := c.Clone(t).(Tuple)
	return v
}

// CloneInto copies k into dst. The copy's lookup cache starts empty and,
// when k's was enabled, is tied to the receiving thread's epoch.
func (k *Class) CloneInto(dst *Class, c Cloner) {
	dst.Name = k.Name
	dst.QualName = k.QualName
	dst.Module = k.Module
	dst.Bases = cloneClasses(c, k.Bases)
	dst.MRO = cloneClasses(c, k.MRO)
	dst.Dict = c.CloneStrDict(k.Dict)
	dst.New = k.New
	dst.builtinType = k.builtinType
	dst.isExc = k.isExc
	dst.pattern = k.pattern
	dst.generic = k.generic
	dst.shared = false
	dst.Meta = c.CloneClass(k.Meta)
	dst.Solid = c.CloneClass(k.Solid)
	if k.epoch != nil {
		dst.epoch = c.ClassEpoch()
	}
	// lepoch, lcache and dcache: the caches start empty.
}

// CloneInto copies in into dst, keeping its identity number.
func (in *Instance) CloneInto(dst *Instance, c Cloner) {
	dst.Class = c.CloneClass(in.Class)
	dst.Dict = c.CloneStrDict(in.Dict)
	dst.Exc = in.Exc.clone(c)
	dst.ID = in.ID
	dst.Base = c.Clone(in.Base)
}

func (e *ExcState) clone(c Cloner) *ExcState {
	if e == nil {
		return nil
	}
	out := &ExcState{
		Args:            cloneTuple(c, e.Args),
		Cause:           c.Clone(e.Cause),
		Context:         c.Clone(e.Context),
		SuppressContext: e.SuppressContext,
		Traceback:       append([]TraceEntry(nil), e.Traceback...),
		SuggestName:     e.SuggestName,
		SuggestObj:      c.Clone(e.SuggestObj),
	}
	if e.SuggestScopes != nil {
		out.SuggestScopes = make([]*StrDict, len(e.SuggestScopes))
		for i, d := range e.SuggestScopes {
			out.SuggestScopes[i] = c.CloneStrDict(d)
		}
	}
	return out
}

// CloneInto copies the namespace d into dst, slot for slot (deleted slots
// included), so positions and the layout version match the original's.
func (d *StrDict) CloneInto(dst *StrDict, c Cloner) {
	if c.ShareIndexes() {
		dst.index, dst.indexShared = d.index, true
	} else {
		dst.index = maps.Clone(d.index)
	}
	dst.keys = c.Strings(len(d.keys))
	copy(dst.keys, d.keys)
	dst.vals = c.Values(len(d.vals))
	for i, v := range d.vals {
		if v != nil {
			dst.vals[i] = c.Clone(v)
		}
	}
	dst.dead = d.dead
	dst.layout = d.layout
	dst.seen = d.seen
}

func (h *hashtable) cloneInto(dst *hashtable, c Cloner) {
	if h.entries != nil {
		dst.entries = make([]entry, len(h.entries))
		for i, e := range h.entries {
			if e.dead() {
				dst.entries[i] = entry{hash: e.hash}
				continue
			}
			dst.entries[i] = entry{hash: e.hash, key: c.Clone(e.key), value: c.Clone(e.value)}
		}
	}
	if h.index != nil {
		dst.index = maps.Clone(h.index)
	}
	if h.more != nil {
		dst.more = make(map[int64][]int32, len(h.more))
		for k, pos := range h.more {
			dst.more[k] = append([]int32(nil), pos...)
		}
	}
	dst.live = h.live
	dst.version = h.version
}

// CloneInto copies d into dst, entry for entry.
func (d *Dict) CloneInto(dst *Dict, c Cloner) {
	d.ht.cloneInto(&dst.ht, c)
	dst.ns = c.CloneStrDict(d.ns)
}

// CloneInto copies s into dst, entry for entry.
func (s *Set) CloneInto(dst *Set, c Cloner) {
	s.ht.cloneInto(&dst.ht, c)
	dst.Frozen = s.Frozen
}

// CloneInto copies l into dst.
func (l *List) CloneInto(dst *List, c Cloner) { dst.Elems = CloneValues(c, l.Elems) }

// CloneInto copies b into dst.
func (b *ByteArray) CloneInto(dst *ByteArray, _ Cloner) {
	if b.B != nil {
		dst.B = append(make([]byte, 0, len(b.B)), b.B...)
	}
}

// CloneInto copies m into dst.
func (m *BoundMethod) CloneInto(dst *BoundMethod, c Cloner) {
	dst.Self = c.Clone(m.Self)
	dst.Fn = c.Clone(m.Fn)
}

// CloneInto copies p into dst.
func (p *Property) CloneInto(dst *Property, c Cloner) {
	dst.Get, dst.Set, dst.Del = c.Clone(p.Get), c.Clone(p.Set), c.Clone(p.Del)
}

// CloneInto copies s into dst.
func (s *StaticMethod) CloneInto(dst *StaticMethod, c Cloner) { dst.Fn = c.Clone(s.Fn) }

// CloneInto copies m into dst.
func (m *ClassMethod) CloneInto(dst *ClassMethod, c Cloner) { dst.Fn = c.Clone(m.Fn) }

// CloneInto copies s into dst.
func (s *Super) CloneInto(dst *Super, c Cloner) {
	dst.Start = c.CloneClass(s.Start)
	dst.Obj = c.Clone(s.Obj)
}

// CloneInto copies g into dst.
func (g *GenericAlias) CloneInto(dst *GenericAlias, c Cloner) {
	dst.Origin = c.CloneClass(g.Origin)
	dst.Args = cloneTuple(c, g.Args)
}

// CloneInto copies v into dst.
func (v *DictView) CloneInto(dst *DictView, c Cloner) {
	if v.D != nil {
		dst.D, _ = c.Clone(v.D).(*Dict)
	}
	dst.Kind = v.Kind
}

// CloneInto copies s into dst.
func (s *SliceObj) CloneInto(dst *SliceObj, c Cloner) {
	dst.Start, dst.Stop, dst.Step = c.Clone(s.Start), c.Clone(s.Stop), c.Clone(s.Step)
}
