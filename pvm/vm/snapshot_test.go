package vm

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/cowboy-chain/cowboy/pvm/compile"
	"github.com/cowboy-chain/cowboy/pvm/meter"
	"github.com/cowboy-chain/cowboy/pvm/object"
)

// snapLib is a module written in Python that the modules under test import.
const snapLib = `
class Base:
    kind = "base"
    def __init__(self, n):
        self.n = n
    def double(self):
        return self.n * 2
SENTINEL = Base(0)
`

// snapModules are module sources whose imports must cost and behave the
// same from a snapshot as when run.
var snapModules = map[string]string{
	"classes": `
import lib
import gomod
from gomod import twice, Thing
class A(lib.Base):
    count = 0
    tags = ["a", "b"]
    def __init__(self, n, *, k=3):
        super().__init__(n)
        self.k = k
    @property
    def total(self):
        return self.n + self.k
    @staticmethod
    def s(x):
        return x + 1
    @classmethod
    def c(cls):
        return cls.count
def make(n, extra=[1, 2], *, kw={"z": 1}):
    def inner(m):
        return n + m + len(extra) + kw["z"]
    return inner
shared = [1, 2]
both = (shared, shared, {"k": shared})
inst = A(5)
bound = inst.double
alias = list[int]
a_set = {1, "x", (1, 2)}
frozen = frozenset([3, 4])
view = {"a": 1}.keys()
sl = slice(1, None, 2)
ba = bytearray(b"xyz")
big = 10**40
try:
    raise ValueError("stored")
except ValueError as e:
    caught = e
closure = make(4)
holder = {"inst": inst, "lib": lib.SENTINEL, "twice": twice, "thing": Thing}
`,
	"printing": `
print("imported")
X = 1
`,
	"generator": `
def g():
    yield 1
gen = g()
`,
	"plain": `
import lib
V = [lib.Base(i) for i in range(20)]
`,
}

// snapProgram is the importer for a module: it uses what the import built,
// so a wrong copy shows in the output.
func snapProgram(name string) string {
	switch name {
	case "classes":
		return `
import classes
c = classes
print(c.inst.total, c.A.s(1), c.A.c(), c.inst.double(), c.bound(), c.closure(1))
print(c.both[0] is c.both[1], c.both[2]["k"] is c.shared, id(c.inst), hash(c.inst) == hash(c.holder["inst"]))
print(c.alias, c.a_set, c.frozen, list(c.view), c.sl, c.ba, c.big, repr(c.caught))
print(c.twice(21), c.Thing, c.holder["lib"].double(), isinstance(c.inst, c.lib.Base), c.A.__mro__)
print(hasattr(c.A, "added"), hasattr(c, "added"), "count" in c.A.__dict__)
c.A.count = 7
c.A.added = 1
c.added = 2
del c.A.s
print(c.A.c(), c.A.tags.append("c"), c.A.tags)
import lib
print(lib is c.lib, lib.SENTINEL is c.holder["lib"])
class Sub(c.A):
    pass
print(Sub(1).total, Sub.c())
`
	case "printing":
		return "import printing\nprint(printing.X)\n"
	case "generator":
		return "import generator\nprint(next(generator.gen))\n"
	}
	return "import plain\nprint(len(plain.V), plain.V[3].double())\n"
}

// snapOutcome is everything a run can show or be charged.
type snapOutcome struct {
	out                  string
	err                  string
	cycles, mem, walks   uint64
	ids, frames          int64
	heapBytes, heapCount uint64
}

// snapRegistry makes the whitelist of the test: the modules above and a
// module written in Go. fresh defs have no snapshots yet.
func snapRegistry(t *testing.T) *Registry {
	t.Helper()
	r := NewRegistry()
	add := func(name, src string) {
		code, err := compile.File(name+".py", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		r.Register(PythonModuleDef(name, func() (*compile.Code, error) { return code, nil }))
	}
	add("lib", snapLib)
	for name, src := range snapModules {
		add(name, src)
	}
	r.Register(ModuleDef{Name: "gomod", Load: func(*Thread) (*Module, error) {
		m := NewModule("gomod")
		m.Globals.Set("twice", object.NewBuiltin("twice", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
			return object.Int(2 * args[0].(object.Int)), nil
		}))
		m.Globals.Set("Thing", &object.Class{Name: "Thing", Module: "gomod", Dict: object.NewStrDict()})
		return m, nil
	}})
	return r
}

func runSnap(t *testing.T, reg *Registry, src string, limits meter.Limits) snapOutcome {
	t.Helper()
	code, err := compile.File("main.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	m := meter.New(limits)
	th := NewThread(Options{Meter: m, Stdout: &out, Modules: reg})
	defer th.Release()
	_, err = th.RunModule(code, "__main__")
	o := snapOutcome{out: out.String(), cycles: m.CyclesUsed(), mem: m.MemoryUsed(), walks: m.Measurements(), ids: th.nextID, frames: th.frameSeq}
	if err != nil {
		o.err = th.Uncaught(err).Error()
		return o
	}
	w := object.NewHeapWalk(func(uint64) error { return nil }, nil)
	for _, name := range []string{"classes", "generator", "lib", "plain", "printing"} {
		if mod, ok := th.cache[name]; ok {
			w.Visit(mod)
		}
	}
	o.heapBytes, _ = w.Run()
	o.heapCount = w.Objects
	return o
}

// TestModuleSnapshotChargesLikeRunning compares each import run cold (a
// fresh whitelist, so the module runs) with the same import served from a
// snapshot: output, cycles, allocation counter, identity and frame
// counters and the live heap must be identical, also at limits that stop
// the import part-way (then the snapshot must not be used).
func TestModuleSnapshotChargesLikeRunning(t *testing.T) {
	full := meter.Limits{Cycles: 50_000_000}
	for _, name := range []string{"classes", "printing", "generator", "plain"} {
		t.Run(name, func(t *testing.T) {
			src := snapProgram(name)
			cold := runSnap(t, snapRegistry(t), src, full)
			if cold.err != "" {
				t.Fatalf("cold run failed: %s", cold.err)
			}
			warm := snapRegistry(t)
			runSnap(t, warm, src, full) // records
			// Twice: a copy that changed names must not have changed
			// the snapshot the next copy comes from.
			for i := 0; i < 2; i++ {
				if got := runSnap(t, warm, src, full); got != cold {
					t.Fatalf("from the snapshot (%d):\n%+v\nrun:\n%+v", i, got, cold)
				}
			}
			replays := lookupDef(warm, name).snaps.replays.Load()
			if wantReplay := name == "classes" || name == "plain"; (replays > 0) != wantReplay {
				t.Fatalf("%s replayed %d times, want replays: %v", name, replays, wantReplay)
			}
			// Limits that stop the program inside or right after the
			// import: the outcome must not depend on the snapshot.
			for _, lim := range []meter.Limits{
				{Cycles: cold.cycles / 3}, {Cycles: cold.cycles - 1}, {Cycles: cold.cycles},
				{Cycles: full.Cycles, MemoryLimit: cold.mem / 2}, {Cycles: full.Cycles, MemoryLimit: cold.mem - 1},
				{Cycles: full.Cycles, MaxDepth: 3},
			} {
				c := runSnap(t, snapRegistry(t), src, lim)
				w := runSnap(t, warm, src, lim)
				if c != w {
					t.Fatalf("limits %+v: from the snapshot:\n%+v\nrun:\n%+v", lim, w, c)
				}
			}
		})
	}
}

// TestModuleSnapshotState checks that a snapshot is used only in the state
// it was recorded in: after other objects got identities first, the
// module runs (or uses a snapshot of that state) and ids stay right.
func TestModuleSnapshotState(t *testing.T) {
	const pre = "class K: pass\nks = [K() for _ in range(3)]\n"
	src := pre + snapProgram("plain")
	cold := runSnap(t, snapRegistry(t), src, meter.Limits{Cycles: 1 << 30})
	warm := snapRegistry(t)
	runSnap(t, warm, snapProgram("plain"), meter.Limits{Cycles: 1 << 30}) // another state
	for i := 0; i < 2; i++ {
		if got := runSnap(t, warm, src, meter.Limits{Cycles: 1 << 30}); got != cold {
			t.Fatalf("run %d:\n%+v\nwant\n%+v", i, got, cold)
		}
	}
	if n := lookupDef(warm, "plain").snaps.replays.Load(); n != 1 {
		t.Fatalf("replays = %d, want 1 (the second run in the new state)", n)
	}
}

// TestCopierCopiesEveryField fills every field of each struct the module
// snapshot copier handles with a non-zero value, copies it, and fails for
// any field left zero that is not one of the caches the copier empties on
// purpose. Adding a field to Function, Class, Instance, ... without
// teaching the copier about it makes this test fail.
func TestCopierCopiesEveryField(t *testing.T) {
	// reset lists the fields a copy deliberately starts without: caches
	// that change no result and no charge, and the shared marker.
	reset := map[string]bool{
		"Function.gcache": true, "Function.acache": true,
		"Class.lepoch": true, "Class.lcache": true, "Class.dcache": true, "Class.shared": true,
	}
	samples := []object.Value{
		&Function{}, &Cell{}, &Module{},
		&object.Class{}, &object.Instance{}, &object.List{}, &object.Dict{}, &object.Set{},
		&object.ByteArray{}, &object.BoundMethod{}, &object.Property{}, &object.StaticMethod{},
		&object.ClassMethod{}, &object.Super{}, &object.GenericAlias{}, &object.DictView{}, &object.SliceObj{},
	}
	for _, v := range samples {
		rv := reflect.ValueOf(v).Elem()
		name := rv.Type().Name()
		t.Run(name, func(t *testing.T) {
			fillStruct(t, rv)
			if _, ok := v.(*object.Class); ok {
				settable(rv.FieldByName("shared")).SetBool(false) // a shared class is not copied
			}
			cp := newCopier(new(uint64), sharedBuiltins())
			got := cp.Clone(v)
			if cp.err != nil {
				t.Fatal(cp.err)
			}
			if reflect.ValueOf(got).Pointer() == reflect.ValueOf(v).Pointer() {
				t.Fatal("not copied")
			}
			checkCopied(t, name, reflect.ValueOf(got).Elem(), reset)
			// The StrDict inside is copied field by field too.
			d := &object.StrDict{}
			fillStruct(t, reflect.ValueOf(d).Elem())
			checkCopied(t, "StrDict", reflect.ValueOf(cp.CloneStrDict(d)).Elem(), reset)
			// And an exception state.
			in := &object.Instance{Class: object.ValueError}
			exc := &object.ExcState{}
			fillStruct(t, reflect.ValueOf(exc).Elem())
			in.Exc = exc
			checkCopied(t, "ExcState", reflect.ValueOf(cp.Clone(in).(*object.Instance).Exc).Elem(), reset)
		})
	}
}

func settable(f reflect.Value) reflect.Value {
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
}

// fillStruct sets every field of the struct v to a non-zero value the
// copier can copy.
func fillStruct(t *testing.T, v reflect.Value) {
	t.Helper()
	for i := 0; i < v.NumField(); i++ {
		f := settable(v.Field(i))
		fill(t, v.Type().Name()+"."+v.Type().Field(i).Name, f)
	}
}

var (
	valueType   = reflect.TypeOf((*object.Value)(nil)).Elem()
	classType   = reflect.TypeOf((*object.Class)(nil))
	strDictType = reflect.TypeOf((*object.StrDict)(nil))
)

func fill(t *testing.T, name string, f reflect.Value) {
	t.Helper()
	switch {
	case f.Type() == valueType:
		f.Set(reflect.ValueOf(object.Value(object.Str("v"))))
		return
	case f.Type() == classType:
		f.Set(reflect.ValueOf(&object.Class{Name: "K", Dict: object.NewStrDict()}))
		return
	case f.Type() == strDictType:
		d := object.NewStrDict()
		d.Set("a", object.Int(1))
		f.Set(reflect.ValueOf(d))
		return
	}
	switch f.Kind() {
	case reflect.String:
		f.SetString("s")
	case reflect.Bool:
		f.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		f.SetInt(3)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		f.SetUint(3)
	case reflect.Func:
		f.Set(reflect.MakeFunc(f.Type(), func([]reflect.Value) []reflect.Value { panic("not called") }))
	case reflect.Map:
		m := reflect.MakeMap(f.Type())
		k, e := reflect.New(f.Type().Key()).Elem(), reflect.New(f.Type().Elem()).Elem()
		if k.Kind() == reflect.Int64 {
			k.SetInt(1)
		}
		m.SetMapIndex(k, e)
		f.Set(m)
	case reflect.Slice:
		s := reflect.MakeSlice(f.Type(), 1, 1)
		if e := s.Index(0); e.Kind() == reflect.Interface || e.Kind() == reflect.Pointer {
			fill(t, name+"[0]", e)
		}
		f.Set(s)
	case reflect.Struct:
		fillStruct(t, f)
	case reflect.Pointer:
		switch f.Type() {
		case reflect.TypeOf((*compile.Code)(nil)):
			f.Set(reflect.ValueOf(&compile.Code{}))
		case reflect.TypeOf((*Cell)(nil)):
			f.Set(reflect.ValueOf(&Cell{V: object.Int(1)}))
		case reflect.TypeOf((*object.Dict)(nil)):
			f.Set(reflect.ValueOf(object.NewDict()))
		case reflect.TypeOf((*object.ExcState)(nil)):
			f.Set(reflect.ValueOf(&object.ExcState{}))
		case reflect.TypeOf((*uint64)(nil)):
			f.Set(reflect.ValueOf(new(uint64)))
		case reflect.TypeOf((*funcExtra)(nil)):
			// A function's rarely set fields: each filled, so that
			// checkCopied sees every one of them copied.
			x := &funcExtra{}
			fillStruct(t, reflect.ValueOf(x).Elem())
			f.Set(reflect.ValueOf(x))
		default:
			if f.Type().String() == "*object.dunderCache" { // unexported: a cache the copy resets
				f.Set(reflect.New(f.Type().Elem()))
				return
			}
			t.Fatalf("%s: teach fill to make a %s", name, f.Type())
		}
	default:
		t.Fatalf("%s: teach fill to make a %s", name, f.Type())
	}
}

func checkCopied(t *testing.T, name string, v reflect.Value, reset map[string]bool) {
	t.Helper()
	for i := 0; i < v.NumField(); i++ {
		field := name + "." + v.Type().Field(i).Name
		f := v.Field(i)
		if field == "StrDict.indexShared" {
			continue // set only when copying from a pristine snapshot
		}
		if reset[field] {
			if !f.IsZero() {
				t.Errorf("%s should start empty in a copy", field)
			}
			continue
		}
		if f.Kind() == reflect.Struct {
			checkCopied(t, v.Type().Field(i).Type.Name(), f, reset)
			continue
		}
		if f.Type() == reflect.TypeOf((*funcExtra)(nil)) && !f.IsNil() {
			checkCopied(t, "funcExtra", f.Elem(), reset)
			continue
		}
		if f.IsZero() {
			t.Errorf("%s is not copied (copy it in its CloneInto, or list it as reset if it is a cache)", field)
		}
	}
}

// TestModuleSnapshotNotUsedWhileHandling: an import inside an except block
// links exceptions the module raises to the one handled, so it runs.
func TestModuleSnapshotNotUsedWhileHandling(t *testing.T) {
	reg := snapRegistry(t)
	src := "try:\n    raise KeyError(1)\nexcept KeyError:\n    import plain\nprint(len(plain.V))\n"
	for i := 0; i < 2; i++ {
		if o := runSnap(t, reg, src, meter.Limits{Cycles: 1 << 30}); o.err != "" || !strings.Contains(o.out, "20") {
			t.Fatalf("run %d: %+v", i, o)
		}
	}
	if n := lookupDef(reg, "plain").snaps.replays.Load(); n != 0 {
		t.Fatalf("replays = %d", n)
	}
}

func lookupDef(r *Registry, name string) ModuleDef {
	d, _ := r.Lookup(name)
	return d
}
