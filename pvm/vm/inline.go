package vm

import (
	"unsafe"

	"github.com/cowboy-chain/cowboy/pvm/object"
)

// Inline caches for LOAD_ATTR, STORE_ATTR and LOAD_METHOD.
//
// Each Function keeps, for every name of its code and each of the three
// instructions, one attrSite remembering the last receiver class seen there
// with that class's LookupVersion and what the slow path decided for it. A
// site is consulted only when the receiver's class and version match, so a
// cached decision is exactly the one object.GetAttr / object.SetAttr would
// take again; instance dictionaries are then read through a position hint
// instead of a hash lookup. The caches live on the Function, a runtime
// object of one thread, never on the compiled code, which is shared between
// goroutines and stays read-only. They change no result and no charge: a
// hit does what the slow path would, without its map lookups.

// attrSite is the inline cache of one (instruction kind, name) of a
// function. It remembers the first receiver class seen there inline and,
// once a second class comes by, up to polyExtra more: a call site such as
// richards' `t.fn(pkt)` sees several subclasses in turn, and a cache of one
// class would miss, and look the name up again, nearly every time.
type attrSite struct {
	attrEntry
	more *[polyExtra]attrEntry
	next uint8 // the entry of more to replace next, round robin
}

// polyExtra is how many classes a site remembers beyond the first.
const polyExtra = 3

// attrEntry is what a site decided for one receiver class at one lookup
// version of it.
type attrEntry struct {
	cls  *object.Class
	ver  uint64
	ok   bool         // the fast path applies to instances of cls
	meth object.Value // LOAD_METHOD: the method found on cls
	bit  uint64       // LOAD_METHOD: object.NameBit of the name
	slot int32        // position hint into instance dictionaries
	// key is the name as the instance dictionary last read holds it at
	// slot (see sameKey), so the hint's comparison is a pointer check.
	key string
}

// sameKey makes e.key the dictionary's own string for the name at e.slot.
// Names are equal strings in every code object but separate copies, and
// the dictionary keeps the copy of the code that first stored the
// attribute; comparing two copies compares their bytes. Only the string
// header the cache holds changes: no dictionary, result or charge does.
func (e *attrEntry) sameKey(d *object.StrDict) {
	if k := d.KeyAt(int(e.slot)); unsafe.StringData(k) != unsafe.StringData(e.key) {
		e.key = k
	}
}

// entryMore returns the site's entry for class k and whether it holds a
// decision for version ver, when the first entry does not (the callers
// check that one themselves, so the common case costs no call). When it
// returns false, the entry is now k's at ver and the caller must fill in
// the decision.
func (s *attrSite) entryMore(k *object.Class, ver uint64) (*attrEntry, bool) {
	if s.cls == k || s.cls == nil {
		s.cls, s.ver = k, ver
		return &s.attrEntry, false
	}
	if s.more == nil {
		s.more = new([polyExtra]attrEntry)
	}
	for i := range s.more {
		e := &s.more[i]
		if e.cls == k {
			if e.ver == ver {
				return e, true // the common case: nothing to write
			}
			e.ver = ver
			return e, false
		}
		if e.cls == nil {
			e.cls, e.ver = k, ver
			return e, false
		}
	}
	e := &s.more[s.next]
	s.next = (s.next + 1) % polyExtra
	e.cls, e.ver, e.slot = k, ver, 0
	return e, false
}

// polyHit returns the entry of more that holds class k at version ver,
// or nil: the hit check of entryMore, small enough to be inlined into the
// fast paths below, where a polymorphic site (richards' four Task
// classes) hits most often.
func (s *attrSite) polyHit(k *object.Class, ver uint64) *attrEntry {
	if m := s.more; m != nil {
		for i := range m {
			if m[i].cls == k && m[i].ver == ver {
				return &m[i]
			}
		}
	}
	return nil
}

// Site kinds, the blocks of Function.acache.
const (
	siteLoad = iota
	siteStore
	siteMethod
	siteClassLoad   // LOAD_ATTR on a class (classAttr)
	siteClassMethod // LOAD_METHOD on a class
	siteKinds
)

// site returns the inline cache of the instruction kind for name index i.
func (fn *Function) site(kind int, i uint32) *attrSite {
	n := len(fn.Code.Names)
	if fn.acache == nil {
		fn.acache = make([]attrSite, siteKinds*n)
	}
	return &fn.acache[kind*n+int(i)]
}

// loadAttr is LOAD_ATTR's fast path for an instance: o.name when the
// class's lookup for name lets the instance dictionary answer first and it
// does. It reports false when the slow path must run.
func (s *attrSite) loadAttr(o *object.Instance, name string) (object.Value, bool) {
	k := o.Class
	ver, cacheable := k.LookupVersion()
	if !cacheable {
		return nil, false
	}
	e := &s.attrEntry
	if e.cls != k || e.ver != ver {
		if e = s.polyHit(k, ver); e == nil {
			var hit bool
			if e, hit = s.entryMore(k, ver); !hit {
				e.ok, e.key = object.InstanceDictFirst(k, name), name
			}
		}
	}
	if !e.ok {
		return nil, false
	}
	if v := o.Dict.BoundAt(e.slot, e.key); v != nil {
		return v, true
	}
	v, ok := o.Dict.GetHinted(e.key, &e.slot)
	if ok {
		e.sameKey(o.Dict)
	}
	return v, ok
}

// storeAttr is STORE_ATTR's fast path for an instance: it rebinds an
// existing attribute when the store is a plain dictionary store, or adds
// a new one when the meter's allocation counter takes its dictionary
// entry without a live-heap walk (object.AddInstanceAttr), so the charge
// object.SetAttr would make certainly succeeds. It reports false, having done nothing, when the slow
// path must run.
func (s *attrSite) storeAttr(t *Thread, o *object.Instance, name string, v object.Value) bool {
	k := o.Class
	ver, cacheable := k.LookupVersion()
	if !cacheable {
		return false
	}
	e := &s.attrEntry
	if e.cls != k || e.ver != ver {
		if e = s.polyHit(k, ver); e == nil {
			var hit bool
			if e, hit = s.entryMore(k, ver); !hit {
				e.ok, e.key = object.InstancePlainStore(k, name), name
			}
		}
	}
	if !e.ok {
		return false
	}
	if o.Dict.RebindAt(e.slot, e.key, v) {
		return true
	}
	if o.Dict.SetHinted(e.key, &e.slot, v) {
		e.sameKey(o.Dict)
		return true
	}
	return !t.plainAttrs && object.AddInstanceAttr(t.meter, o, name, v)
}

// instanceMethod is LOAD_METHOD's lookup on an instance: the Python
// function the class provides for name, when the instance does not shadow
// it, else nil.
func (s *attrSite) instanceMethod(o *object.Instance, name string) object.Value {
	k := o.Class
	ver, cacheable := k.LookupVersion()
	if !cacheable {
		if a, _ := k.Lookup(name); a != nil {
			if fn, ok := a.(*Function); ok && !o.Dict.Has(name) {
				return fn
			}
		}
		return nil
	}
	e := &s.attrEntry
	if e.cls != k || e.ver != ver {
		if e = s.polyHit(k, ver); e == nil {
			var hit bool
			if e, hit = s.entryMore(k, ver); !hit {
				e.meth, e.bit = nil, object.NameBit(name)
				if a, _ := k.Lookup(name); a != nil {
					if fn, ok := a.(*Function); ok {
						e.meth = fn
					}
				}
			}
		}
	}
	// The instance shadows the method only if its dictionary binds name;
	// a clear bit in its filter of names says it never did.
	if e.meth == nil || o.Dict.MayHave(e.bit) && o.Dict.Has(name) {
		return nil
	}
	return e.meth
}

// classAttr is the cached object.ClassAttrFixed of class k for name, with
// the entry's fields read as: meth the value, bit 1 when it is a
// classmethod's function to bind to k. ok is false when object.GetAttr
// must run.
func (s *attrSite) classAttr(k *object.Class, name string) (v object.Value, bindClass, ok bool) {
	ver, cacheable := k.LookupVersion()
	if !cacheable {
		return nil, false, false
	}
	e := &s.attrEntry
	if e.cls != k || e.ver != ver {
		e.cls, e.ver = k, ver
		var bc bool
		e.meth, bc, e.ok = object.ClassAttrFixed(k, name)
		e.bit = 0
		if bc {
			e.bit = 1
		}
	}
	return e.meth, e.bit == 1, e.ok
}

// getAttr is the general case of LOAD_ATTR (kind siteClassLoad) and
// LOAD_METHOD (siteClassMethod) of name index i in frame f after their
// instance fast paths: on a class, the site's cached answer
// (attrSite.classAttr), else object.GetAttr. It takes the frame and
// reads the name itself: with the function and name as arguments the
// call moved the interpreter loop's register allocation (richards +0.4%
// instructions).
func (t *Thread) getAttr(f *frame, kind int, i uint32, obj object.Value) (object.Value, error) {
	name := f.code.Names[i]
	if k, ok := obj.(*object.Class); ok && !t.plainAttrs {
		if v, bindClass, ok := f.fn.site(kind, i).classAttr(k, name); ok {
			if bindClass {
				return &object.BoundMethod{Self: k, Fn: v}, nil
			}
			return v, nil
		}
	}
	return object.GetAttr(t, obj, name)
}

// builtinMethod is LOAD_METHOD's lookup on a value of a builtin type: the
// Go method its type provides for name, else nil.
func (s *attrSite) builtinMethod(k *object.Class, name string) object.Value {
	ver, cacheable := k.LookupVersion()
	if !cacheable {
		return lookupBuiltinMethod(k, name)
	}
	e := &s.attrEntry
	if e.cls != k || e.ver != ver {
		var hit bool
		if e, hit = s.entryMore(k, ver); !hit {
			e.meth = lookupBuiltinMethod(k, name)
		}
	}
	return e.meth
}

// lookupBuiltinMethod is the Go method type k provides for name, or nil.
func lookupBuiltinMethod(k *object.Class, name string) object.Value {
	if a, _ := k.Lookup(name); a != nil {
		if b, ok := a.(*object.Builtin); ok && b.Method {
			return b
		}
	}
	return nil
}
