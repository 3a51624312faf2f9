package vm

import "github.com/cowboy-chain/cowboy/pvm/object"

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
// function.
type attrSite struct {
	cls  *object.Class
	ver  uint64
	ok   bool         // the fast path applies to instances of cls
	meth object.Value // LOAD_METHOD: the method found on cls
	slot int32        // position hint into instance dictionaries
}

// Site kinds, the blocks of Function.acache.
const (
	siteLoad = iota
	siteStore
	siteMethod
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
	if s.cls != k || s.ver != ver {
		s.cls, s.ver, s.ok = k, ver, object.InstanceDictFirst(k, name)
	}
	if !s.ok {
		return nil, false
	}
	return o.Dict.GetHinted(name, &s.slot)
}

// storeAttr is STORE_ATTR's fast path for an instance: it rebinds an
// existing attribute when the store is a plain dictionary store. It
// reports false, having done nothing, when the slow path must run.
func (s *attrSite) storeAttr(o *object.Instance, name string, v object.Value) bool {
	k := o.Class
	ver, cacheable := k.LookupVersion()
	if !cacheable {
		return false
	}
	if s.cls != k || s.ver != ver {
		s.cls, s.ver, s.ok = k, ver, object.InstancePlainStore(k, name)
	}
	return s.ok && o.Dict.SetHinted(name, &s.slot, v)
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
	if s.cls != k || s.ver != ver {
		s.cls, s.ver, s.meth = k, ver, nil
		if a, _ := k.Lookup(name); a != nil {
			if fn, ok := a.(*Function); ok {
				s.meth = fn
			}
		}
	}
	if s.meth == nil || o.Dict.Has(name) {
		return nil
	}
	return s.meth
}

// builtinMethod is LOAD_METHOD's lookup on a value of a builtin type: the
// Go method its type provides for name, else nil.
func (s *attrSite) builtinMethod(k *object.Class, name string) object.Value {
	ver, cacheable := k.LookupVersion()
	if cacheable && s.cls == k && s.ver == ver {
		return s.meth
	}
	var meth object.Value
	if a, _ := k.Lookup(name); a != nil {
		if b, ok := a.(*object.Builtin); ok && b.Method {
			meth = b
		}
	}
	if cacheable {
		s.cls, s.ver, s.meth = k, ver, meth
	}
	return meth
}
