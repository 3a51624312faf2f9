package vm

import (
	"maps"
	"strings"

	"github.com/cowboy-chain/cowboy/pvm/meter"
	"github.com/cowboy-chain/cowboy/pvm/object"
)

// ModuleDef describes a module on the import whitelist.
type ModuleDef struct {
	Name string
	// Load builds the module's namespace the first time a call imports it;
	// the result is cached for the rest of the call.
	Load func(t *Thread) (*Module, error)
	// snaps holds the module's snapshots when it is written in Python
	// (PythonModuleDef); nil for modules written in Go.
	snaps *snapshots
}

// Registry is the import whitelist: only modules registered here can be
// imported (technical spec, "Whitelisted modules"). The standard-library
// issue fills it; the chain adds cowboy_sdk.
// The whitelist is the PVM's sys.path and import finders in one: a name
// not registered cannot be imported, whatever the program does, because
// there is no other way in (no __import__, no importlib, no files).
type Registry struct {
	defs map[string]ModuleDef
	// base holds entries shared with other registries (Extend); it is
	// never modified, and defs override it.
	base *Registry
}

// NewRegistry returns an empty whitelist.
func NewRegistry() *Registry { return &Registry{defs: map[string]ModuleDef{}} }

// Register adds a module to the whitelist, replacing one of the same name.
func (r *Registry) Register(d ModuleDef) { r.defs[d.Name] = d }

// Lookup returns the whitelist entry of name.
// Lookup reads defs, then the bases: an entry added for one call shadows
// the shared whitelist without changing it.
func (r *Registry) Lookup(name string) (ModuleDef, bool) {
	for ; r != nil; r = r.base {
		if d, ok := r.defs[name]; ok {
			return d, true
		}
	}
	return ModuleDef{}, false
}

// Has reports whether name is on the whitelist.
func (r *Registry) Has(name string) bool { _, ok := r.Lookup(name); return ok }

// Extend returns a registry holding r's entries, to which more can be
// added without changing r; r must not change afterwards. A chain makes
// one per call, so this is cheaper than copying the whole whitelist.
func (r *Registry) Extend() *Registry { return &Registry{defs: map[string]ModuleDef{}, base: r} }

// NewModule makes an empty module namespace, for ModuleDef.Load functions.
// Go modules fill it with builtins and classes; __name__ is set as
// CPython's module objects set it.
func NewModule(name string) *Module {
	g := object.NewStrDict()
	g.Set("__name__", object.Str(name))
	return &Module{Name: name, Globals: g}
}

// importModule charges and performs `import name`: 100 cycles for a first
// import, 5 when cached, 50 when refused (CIP-3 §2.2 "Module Import
// System"). The module's body runs on its own budget, not the caller's
// (pvm/meter/imports.go; docs/decisions.md "PVM: flat import charges").
// It is CPython's IMPORT_NAME reduced to the whitelist: sys.modules is
// the thread's cache (one per call, so no module state survives from one
// call to the next), a name found there costs the cached price, and a
// first import loads the module (from a snapshot when one fits) inside
// BeginImportBody/EndImportBody, which give the body its own budget.
// Refused imports are charged too, so probing the whitelist is not free.
// The import is recorded for any snapshot being recorded (noteImport)
// before anything else, including a cache hit: a module that imports an
// already-imported one cannot be snapshotted (record).
func (t *Thread) importModule(name string) (object.Value, error) {
	if len(t.recorders) != 0 {
		t.noteImport(name)
	}
	if m, ok := t.cache[name]; ok {
		if err := t.meter.ImportingCached(name); err != nil {
			return nil, err
		}
		if err := t.meter.Charge(meter.CostImportCached); err != nil {
			return nil, err
		}
		return m, nil
	}
	def, ok := t.modules.Lookup(name)
	if !ok {
		if err := t.meter.Charge(meter.CostImportRefused); err != nil {
			return nil, err
		}
		// ModuleNotFoundError, the ImportError CPython raises for a module
		// it cannot find: `except ModuleNotFoundError:` fallbacks work.
		return nil, object.Errorf(object.ModuleNotFoundError, "import of '%s' is not allowed: not on the PVM module whitelist", name)
	}
	if err := t.meter.Charge(meter.CostImportFirst); err != nil {
		return nil, err
	}
	var m *Module
	var err error
	outer := t.meter.BeginImportBody(maps.Keys(t.cache))
	if def.snaps != nil {
		m, err = t.loadPython(def)
	} else {
		m, err = t.loadGo(def)
	}
	if err = t.meter.EndImportBody(outer, name, err); err != nil {
		return nil, err
	}
	t.cache[name] = m
	return m, nil
}

// importTop performs `import a.b.c` (IMPORT_NAME with compile.ImportTop):
// it imports a, a.b and a.b.c in turn, each charged as importModule
// charges it, sets each submodule as an attribute of its parent, and
// returns a, the module the statement binds. CPython sets the attribute
// when it first loads the submodule (_find_and_load_unlocked); the PVM
// sets it at each such statement, which differs only for a program that
// deleted the attribute and imports again. The link is made here, not in
// importModule, so that `from a.b import x` and `import a.b as c` keep
// their charges and module snapshots never see a parent changed from
// outside them.
func (t *Thread) importTop(name string) (object.Value, error) {
	var top, parent object.Value
	for i := 0; i <= len(name); i++ {
		if i < len(name) && name[i] != '.' {
			continue
		}
		m, err := t.importModule(name[:i])
		if err != nil {
			return nil, err
		}
		if top == nil {
			top = m
		} else if pm, ok := parent.(*Module); ok {
			pm.Globals.Set(name[strings.LastIndexByte(name[:i], '.')+1:i], m)
		}
		parent = m
	}
	return top, nil
}
