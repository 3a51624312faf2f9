package pvm

import (
	"bytes"
	"testing"

	"github.com/cowboy-chain/cowboy/pvm/meter"
	"github.com/cowboy-chain/cowboy/pvm/object"
	"github.com/cowboy-chain/cowboy/pvm/vm"
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
	want := "hello a hello b 3 True\nImportError import of 'os' is not allowed: not on the PVM module whitelist\ncannot import name 'missing' from 'greet'\n"
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
}
