// Package modules is the PVM's import whitelist (technical spec v2, "Module
// whitelist"; CIP-3 §2.2 "Module Import System"): the standard-library
// modules an actor may import, each written in Go or in embedded Python.
//
// Every module registers itself from its own file with register (Go) or
// registerPython (embedded source under py/). Standard returns the whole
// whitelist; the chain adds cowboy_sdk and pvm_host on top.
package modules

import (
	"embed"
	"fmt"
	"sort"
	"sync"

	"github.com/cowboy-chain/cowboy/pvm/compile"
	"github.com/cowboy-chain/cowboy/pvm/object"
	"github.com/cowboy-chain/cowboy/pvm/vm"
)

// defs holds every module of the whitelist by name. It is filled by the
// package's init functions and read-only afterwards.
var defs = map[string]vm.ModuleDef{}

func register(d vm.ModuleDef) {
	if _, dup := defs[d.Name]; dup {
		panic("pvm/modules: module registered twice: " + d.Name)
	}
	defs[d.Name] = d
}

// pySources holds py/; __future__.py is named on its own because a
// directory pattern leaves out files whose names start with '_'.
//
//go:embed py py/__future__.py
var pySources embed.FS

// registerPython whitelists a module written in Python, kept as
// py/<name>.py. The source is compiled once per process (compilation is
// deterministic, so sharing the code object cannot make nodes differ); a
// call imports it from a snapshot of its first run, charged as running it
// (pvm/vm/snapshot.go).
func registerPython(name string) {
	d := PythonModule(name, func() ([]byte, error) { return pySources.ReadFile("py/" + name + ".py") })
	if fix := pythonFixups[name]; fix != nil {
		load := d.Load
		d.Load = func(t *vm.Thread) (*vm.Module, error) {
			m, err := load(t)
			if err == nil {
				fix(m)
			}
			return m, err
		}
	}
	register(d)
}

// pythonFixups finish modules written in Python where Python cannot say
// what CPython's C types do, after their code ran and before the import
// is recorded (so the snapshot carries it). They charge nothing.
var pythonFixups = map[string]func(*vm.Module){
	// collections.deque is a C type with Py_TPFLAGS_SEQUENCE in CPython:
	// sequence patterns in a match statement accept a deque.
	"collections": func(m *vm.Module) {
		if k, ok := m.Globals.Get("deque"); ok {
			if k, ok := k.(*object.Class); ok {
				k.MarkSequence()
			}
		}
		// deque, OrderedDict, defaultdict and Counter are subscriptable
		// (deque[int] in an annotation), as CPython's C types are.
		for _, name := range []string{"deque", "OrderedDict", "defaultdict", "Counter"} {
			if k, ok := m.Globals.Get(name); ok {
				if k, ok := k.(*object.Class); ok {
					k.MarkGeneric()
				}
			}
		}
	},
}

// PythonModule makes a whitelist entry for a module written in Python whose
// source src returns. The chain uses it for cowboy_sdk. Its first import
// in a state is recorded and later imports copy the recording, charged
// what running the module costs (pvm/vm/snapshot.go).
func PythonModule(name string, src func() ([]byte, error)) vm.ModuleDef {
	compiled := sync.OnceValues(func() (*compile.Code, error) {
		b, err := src()
		if err != nil {
			return nil, fmt.Errorf("module %s: %w", name, err)
		}
		return compile.File(name+".py", b)
	})
	return vm.PythonModuleDef(name, compiled)
}

// Names lists the whitelisted modules in sorted order (for docs and
// error messages).
func Names() []string {
	out := make([]string, 0, len(defs))
	for n := range defs {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Standard returns a fresh registry holding the whole standard whitelist;
// the caller may add more modules to it.
func Standard() *vm.Registry { return standard().Extend() }

// standard is the whole whitelist, built once and never changed.
var standard = sync.OnceValue(func() *vm.Registry {
	r := vm.NewRegistry()
	for _, n := range Names() {
		r.Register(defs[n])
	}
	return r
})
