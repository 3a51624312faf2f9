package pvm

import (
	"bytes"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/pvm/meter"
	"github.com/cowboy-chain/cowboy/pvm/modules"
	"github.com/cowboy-chain/cowboy/pvm/object"
	"github.com/cowboy-chain/cowboy/pvm/vm"
	cowboysdk "github.com/cowboy-chain/cowboy/sdk/python"
)

// testRegistry whitelists one Go module, "greet", whose load count shows
// the module cache at work.
func testRegistry(loads *int) *vm.Registry {
	r := vm.NewRegistry()
	r.Register(vm.ModuleDef{Name: "greet", Load: func(t *vm.Thread) (*vm.Module, error) {
		*loads++
		m := vm.NewModule("greet")
		m.Globals.Set("hello", object.NewBuiltin("hello", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
			return object.Str("hello " + string(args[0].(object.Str))), nil
		}))
		m.Globals.Set("VERSION", object.Int(3))
		return m, nil
	}})
	return r
}

func TestImportWhitelistAndCache(t *testing.T) {
	loads := 0
	var out bytes.Buffer
	src := "import greet\nfrom greet import hello, VERSION as V\nimport greet as g2\nprint(greet.hello('a'), hello('b'), V, g2 is greet)\ntry:\n    import os\nexcept ImportError as e:\n    print(type(e).__name__, e)\ntry:\n    from greet import missing\nexcept ImportError as e:\n    print(e)\n"
	_, err := RunFile("imp.py", []byte(src), Config{CyclesLimit: 1 << 30, Stdout: &out, Modules: testRegistry(&loads)})
	if err != nil {
		t.Fatal(err)
	}
	want := "hello a hello b 3 True\nModuleNotFoundError import of 'os' is not allowed: not on the PVM module whitelist\ncannot import name 'missing' from 'greet'\n"
	if out.String() != want {
		t.Fatalf("got %q\nwant %q", out.String(), want)
	}
	if loads != 1 {
		t.Fatalf("module loaded %d times, want 1 (cached)", loads)
	}
}

// TestImportCosts pins issue 4's import prices: 100 cycles for a first
// import, 5 for a cached one, 50 for a refused one.
func TestImportCosts(t *testing.T) {
	loads := 0
	cost := func(src string) uint64 {
		r, _ := RunFile("c.py", []byte(src), Config{CyclesLimit: 1 << 30, Modules: testRegistry(&loads)})
		return r.CyclesUsed
	}
	base := cost("x = None\n")
	first := cost("import greet\n") - base
	twice := cost("import greet\nimport greet\n") - base
	refused := cost("try:\n    import nope\nexcept ImportError:\n    pass\n")
	if first != meter.CostImportFirst {
		t.Errorf("first import %d cycles, want %d", first, meter.CostImportFirst)
	}
	// The second statement adds LOAD_CONST (1) and STORE_GLOBAL (a global
	// set) around the cached import.
	if want := meter.CostImportCached + meter.CostBase + meter.CostGlobal; twice-first != want {
		t.Errorf("cached import %d cycles, want %d", twice-first, want)
	}
	if refused < meter.CostImportRefused {
		t.Errorf("refused import %d cycles, want at least %d", refused, meter.CostImportRefused)
	}
	// import a.b imports a, then a.b (compile.ImportTop): a refused
	// submodule pays the parent's first import and the refusal both.
	dotted := cost("try:\n    import greet.nope\nexcept ModuleNotFoundError:\n    pass\n")
	if dotted < meter.CostImportFirst+meter.CostImportRefused {
		t.Errorf("refused submodule import %d cycles, want at least %d", dotted, meter.CostImportFirst+meter.CostImportRefused)
	}
}

// pyRegistry whitelists the standard modules plus Python modules given by
// source, for the import-charge tests.
func pyRegistry(srcs map[string]string) *vm.Registry {
	r := modules.Standard()
	for name, src := range srcs {
		r.Register(modules.PythonModule(name, func() ([]byte, error) { return []byte(src), nil }))
	}
	return r
}

// TestImportFlatCharge: a first import of any whitelisted module costs
// CostImportFirst whatever its body runs (docs/decisions.md, "PVM: flat
// import charges"); the second run of each program, served from a module
// snapshot, costs the same.
func TestImportFlatCharge(t *testing.T) {
	reg := pyRegistry(map[string]string{"busy": "total = 0\nfor i in range(20000):\n    total += i\n"})
	cost := func(src string) uint64 {
		t.Helper()
		var used [2]uint64
		for i := range used {
			r, err := RunFile("c.py", []byte(src), Config{CyclesLimit: 1 << 30, Modules: reg})
			if err != nil {
				t.Fatalf("%q: %v", src, err)
			}
			used[i] = r.CyclesUsed
		}
		if used[0] != used[1] {
			t.Fatalf("%q: %d cycles, then %d", src, used[0], used[1])
		}
		return used[0]
	}
	base := cost("x = None\n")
	names := append(modules.Names(), "busy")
	for _, n := range names {
		// `import a.b` imports a, then a.b: one first import each.
		want := base + meter.CostImportFirst*uint64(strings.Count(n, ".")+1)
		if got := cost("import " + n + "\n"); got != want {
			t.Errorf("import %s: %d cycles, want %d", n, got, want)
		}
	}
}

// TestImportBodyChargedAfterCallerModule: once a module body imports a
// module the caller imported first (and could have changed), the rest of
// the body is charged to the caller, so caller code it reaches is never
// free.
func TestImportBodyChargedAfterCallerModule(t *testing.T) {
	reg := pyRegistry(map[string]string{
		"lib":  "def f():\n    return 1\n",
		"user": "import lib\nX = lib.f()\n",
	})
	cost := func(src string) uint64 {
		t.Helper()
		r, err := RunFile("c.py", []byte(src), Config{CyclesLimit: 1 << 30, Modules: reg})
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		return r.CyclesUsed
	}
	slow := "def slow():\n    n = 0\n    for i in range(5000):\n        n += i\n    return n\n"
	fresh := cost(slow + "import user\nimport lib\n")
	before := cost(slow + "import lib\nimport user\n")
	patched := cost(slow + "import lib\nlib.f = slow\nimport user\n")
	// user then lib: two flat charges, the second cached.
	if base := cost(slow + "x = None\nx = None\n"); fresh != base+meter.CostImportFirst+meter.CostImportCached {
		t.Errorf("user then lib: %d cycles, want %d", fresh, base+meter.CostImportFirst+meter.CostImportCached)
	}
	// lib then user: user's body pays from its `import lib` on.
	if before <= fresh {
		t.Errorf("lib then user: %d cycles, want more than %d", before, fresh)
	}
	// The caller's slow() run by user's body is charged in full (5000
	// iterations, far more than a few hundred cycles).
	if patched < before+5000 {
		t.Errorf("patched lib.f: %d cycles, want at least %d", patched, before+5000)
	}
}

// TestImportBodyBudget: a body that runs past ImportBodyBudget fails the
// import with a plain error; the caller pays only the flat charge.
func TestImportBodyBudget(t *testing.T) {
	reg := pyRegistry(map[string]string{"endless": "while True:\n    pass\n"})
	r, err := RunFile("c.py", []byte("import endless\n"), Config{CyclesLimit: 1 << 30, Modules: reg})
	if err == nil || !strings.Contains(err.Error(), "import endless: the module body exceeded its 2000000-cycle budget") {
		t.Fatalf("got %v", err)
	}
	if meter.IsHalt(err) {
		t.Errorf("a body over its budget reads as the caller's limit: %v", err)
	}
	// The import statement's own cycles, without the STORE that never ran.
	flat, err := RunFile("c.py", []byte("import math\n"), Config{CyclesLimit: 1 << 30, Modules: reg})
	if err != nil {
		t.Fatal(err)
	}
	if r.CyclesUsed >= flat.CyclesUsed || r.CyclesUsed < meter.CostImportFirst {
		t.Errorf("used %d cycles, want under %d (import math)", r.CyclesUsed, flat.CyclesUsed)
	}
}

// TestImportBodyWalkCharged: a live-heap walk that a body's allocation
// starts measures the caller's heap, so its cycles are the caller's.
func TestImportBodyWalkCharged(t *testing.T) {
	reg := pyRegistry(map[string]string{"alloc": "L = [0] * 20000\n"})
	fill := "keep = [0] * 125000\nkeep = None\n"
	cfg := Config{CyclesLimit: 1 << 30, Modules: reg, MemoryLimit: 1 << 20}
	a, err := RunFile("c.py", []byte(fill+"x = None\n"), cfg)
	if err != nil {
		t.Fatal(err)
	}
	b, err := RunFile("c.py", []byte(fill+"import alloc\n"), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if b.HeapMeasurements <= a.HeapMeasurements {
		t.Fatalf("the import started no walk (%d, %d measurements): raise fill", a.HeapMeasurements, b.HeapMeasurements)
	}
	walk := b.HeapMeasurementCycles - a.HeapMeasurementCycles
	if walk == 0 || b.CyclesUsed != a.CyclesUsed+meter.CostImportFirst+walk {
		t.Errorf("used %d cycles, want %d + %d + walk %d", b.CyclesUsed, a.CyclesUsed, meter.CostImportFirst, walk)
	}
}

// TestSDKSizeDoesNotChangeCallCost: importing cowboy_sdk costs the flat
// 100 cycles whatever its body defines, so adding functions to the SDK
// does not raise the cost of every actor call.
func TestSDKSizeDoesNotChangeCallCost(t *testing.T) {
	src, err := cowboysdk.Source()
	if err != nil {
		t.Fatal(err)
	}
	bigger := string(src) + strings.Repeat("\n\ndef _extra(x):\n    return [i * x for i in range(3)]\n", 40) + "\n_table = {i: _extra(i) for i in range(50)}\n"
	cost := func(sdk string) uint64 {
		t.Helper()
		reg := pyRegistry(map[string]string{"cowboy_sdk": sdk})
		reg.Register(vm.ModuleDef{Name: "pvm_host", Load: func(*vm.Thread) (*vm.Module, error) { return vm.NewModule("pvm_host"), nil }})
		r, err := RunFile("c.py", []byte("import cowboy_sdk\n"), Config{CyclesLimit: 1 << 30, Modules: reg})
		if err != nil {
			t.Fatal(err)
		}
		return r.CyclesUsed
	}
	if a, b := cost(string(src)), cost(bigger); a != b {
		t.Errorf("import cowboy_sdk: %d cycles, %d with a bigger SDK", a, b)
	}
}

// TestCheckActorDottedImport: CheckActor reads the module name of every
// import form, including `import a.b` (an IMPORT_NAME marked
// compile.ImportTop), and refuses a package not on the actor whitelist.
func TestCheckActorDottedImport(t *testing.T) {
	cases := []struct {
		src string
		ok  bool
	}{
		{"import collections.abc\n", true},
		{"import collections.abc as cabc\n", true},
		{"from collections.abc import Mapping\n", true},
		{"def f():\n    import collections.abc\n    return collections.abc\n", true},
		{"import os.path\n", false},
		{"import json, os.path\n", false},
	}
	for _, c := range cases {
		_, err := CheckActor([]byte(c.src))
		if (err == nil) != c.ok {
			t.Errorf("CheckActor(%q): err %v, want ok %v", c.src, err, c.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "import of 'os.path' is not allowed") {
			t.Errorf("CheckActor(%q): %v", c.src, err)
		}
	}
}
