package pvm

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/cowboy-chain/cowboy/pvm/cbor"
	"github.com/cowboy-chain/cowboy/pvm/compile"
	"github.com/cowboy-chain/cowboy/pvm/meter"
	"github.com/cowboy-chain/cowboy/pvm/modules"
	"github.com/cowboy-chain/cowboy/pvm/object"
	"github.com/cowboy-chain/cowboy/pvm/vm"
	cowboysdk "github.com/cowboy-chain/cowboy/sdk/python"
)

// ActorFile is the file name actor code runs under: tracebacks and receipt
// errors name it ("main.py, line 12").
const ActorFile = "main.py"

// Program is actor source that passed CheckActor: compiled once and run for
// every message the actor handles. A Program is immutable and may be shared
// by goroutines (each Run gets its own Thread).
type Program struct {
	// Source is the canonical source (CanonicalSource) that was compiled.
	Source []byte
	code   *compile.Code
}

// CheckActor compiles actor source and checks every import in it against
// the whitelist (technical spec §1.2, §17.2: the code is checked before it
// is stored). It does not run the code: deployment does, by running
// __init__.
func CheckActor(src []byte) (*Program, error) {
	code, err := Compile(ActorFile, src)
	if err != nil {
		return nil, err
	}
	allowed := actorModules()
	var bad error
	walkCode(code, func(c *compile.Code) {
		for i, in := range c.Instrs {
			if in.Op != compile.IMPORT_NAME || bad != nil {
				continue
			}
			name := c.Names[in.Arg&^compile.ImportTop]
			top, _, _ := strings.Cut(name, ".")
			if !allowed.Has(top) {
				line := 0
				if i < len(c.Lines) {
					line = int(c.Lines[i])
				}
				bad = fmt.Errorf("%s, line %d: import of '%s' is not allowed: actors may import only %s", ActorFile, line, name, strings.Join(actorModuleNames(), ", "))
			}
		}
	})
	if bad != nil {
		return nil, bad
	}
	return &Program{Source: src, code: code}, nil
}

func walkCode(c *compile.Code, f func(*compile.Code)) {
	f(c)
	for _, k := range c.Consts {
		if inner, ok := k.(*compile.Code); ok {
			walkCode(inner, f)
		}
	}
}

// actorModules is the whitelist an actor sees: the standard modules plus
// cowboy_sdk (Python, from sdk/python) and pvm_host, whose functions work
// for the host bindHost bound to the calling thread. It is built once and
// shared by every call (threads only read a registry).
func actorModules() *vm.Registry {
	if r := actorRegistry.Load(); r != nil {
		return r
	}
	r := modules.Standard()
	r.Register(sdkModule)
	r.Register(modules.PythonModule("cowboy_sdk.runner", cowboysdk.RunnerSource)) // from cowboy_sdk import runner
	r.Register(hostModule())
	actorRegistry.CompareAndSwap(nil, r)
	return actorRegistry.Load()
}

// actorRegistry holds actorModules' registry once built; tests that swap
// sdkModule clear it.
var actorRegistry atomic.Pointer[vm.Registry]

func actorModuleNames() []string {
	return append(modules.Names(), "cowboy_sdk", "pvm_host")
}

var sdkModule = modules.PythonModule("cowboy_sdk", cowboysdk.Source)

// Call says what to run: a deployment (the actor's __init__ with Args) or
// one method.
type Call struct {
	Deploy bool
	Method string
	// Args is the canonical CBOR array of positional arguments; empty means
	// no arguments.
	Args []byte
}

// Run executes one message for the actor: it runs the module, finds the
// actor class (the one decorated with cowboy_sdk.actor, else the class named
// Actor), restores its persisted attributes from the host (or, for Deploy,
// constructs it with __init__), calls the method and persists the
// attributes again if they changed. The return value comes back as
// canonical CBOR. cfg.Host must be set.
//
// The error is a *vm.PyError for a Python exception (including refusals
// such as a private or missing method, which Python code could not have
// caught anyway), or a *meter.LimitError when a meter ran out. Either way
// the caller must discard the host writes of this call.
func (p *Program) Run(cfg Config, call Call) (ret []byte, res Result, err error) {
	if cfg.Host == nil {
		return nil, res, errors.New("pvm: actor call without a host")
	}
	m := meter.New(meter.Limits{Cycles: cfg.CyclesLimit, Cells: cfg.CellsLimit, MemoryLimit: cfg.MemoryLimit})
	defer func() {
		res = Result{CyclesUsed: m.CyclesUsed(), CellsUsed: m.CellsUsed()}
		if r := recover(); r != nil {
			ret, err = nil, fmt.Errorf("pvm: internal error running actor: %v", r)
		}
	}()
	t := vm.NewThread(vm.Options{Meter: m, Stdout: orDiscard(cfg.Stdout), Modules: actorModules(), FS: vm.NewMemScratch()})
	defer t.Release()
	defer bindHost(t, cfg.Host)()
	ret, err = runActor(t, p.code, cfg.Host, call)
	if err != nil {
		return nil, res, t.Uncaught(err)
	}
	return ret, res, nil
}

func orDiscard(w io.Writer) io.Writer {
	if w == nil {
		return io.Discard
	}
	return w
}

// attrsKey is the single record of a plain actor's attributes in NSAttrs.
var attrsKey = []byte("__dict__")

func runActor(t *vm.Thread, code *compile.Code, h Host, call Call) ([]byte, error) {
	mod, err := t.RunModule(code, "__main__")
	if err != nil {
		return nil, err
	}
	cls, err := findActorClass(mod)
	if err != nil {
		return nil, err
	}
	args, err := decodeArgs(t, call.Args)
	if err != nil {
		return nil, err
	}
	t.AddRoot(mod)
	t.AddRoot(object.Tuple(args))
	var self *object.Instance
	var before []byte
	if call.Deploy {
		v, err := t.Call(cls, args, nil)
		if err != nil {
			return nil, err
		}
		in, ok := v.(*object.Instance)
		if !ok {
			return nil, object.Errorf(object.TypeError, "actor class %s did not construct an instance", cls.Name)
		}
		self = in
		t.AddRoot(self)
	} else {
		if strings.HasPrefix(call.Method, "_") {
			return nil, object.Errorf(object.AttributeError, "method '%s' is private: names starting with '_' cannot be called from outside the actor", call.Method)
		}
		if self, err = object.NewInstance(t, cls); err != nil {
			return nil, err
		}
		t.AddRoot(self)
		if before, err = loadAttrs(t, h, self); err != nil {
			return nil, err
		}
	}
	var out object.Value = object.None
	if !call.Deploy {
		fn, err := lookupMethod(t, cls, self, call.Method)
		if err != nil {
			return nil, err
		}
		if out, err = t.Call(fn, args, nil); err != nil {
			return nil, err
		}
		t.AddRoot(out)
	}
	if err := saveAttrs(t, h, self, before); err != nil {
		return nil, err
	}
	if call.Deploy {
		return nil, nil
	}
	b, err := cbor.Encode(t, out)
	if err != nil {
		return nil, fmt.Errorf("return value of %s(): %w", call.Method, err)
	}
	// CIP-3 §2.2.2 "Return Data": after the handler returns, the bytes of
	// its return value are charged as cells (None is one byte).
	if err := t.Meter().ChargeCells(uint64(len(b))); err != nil {
		return nil, err
	}
	return b, nil
}

// findActorClass picks the class decorated with @actor, or else the one
// named Actor (innovations-overview §3 shows both styles).
func findActorClass(mod *vm.Module) (*object.Class, error) {
	var marked []*object.Class
	mod.Globals.Each(func(_ string, v object.Value) {
		if k, ok := v.(*object.Class); ok {
			if _, ok := k.Dict.Get("__cowboy_actor__"); ok {
				marked = append(marked, k)
			}
		}
	})
	switch {
	case len(marked) == 1:
		return marked[0], nil
	case len(marked) > 1:
		return nil, object.Errorf(object.TypeError, "more than one class is decorated with @actor (%s and %s); an actor has one class", marked[0].Name, marked[1].Name)
	}
	if v, ok := mod.Globals.Get("Actor"); ok {
		if k, ok := v.(*object.Class); ok {
			return k, nil
		}
	}
	return nil, object.Errorf(object.TypeError, "no actor class: define `class Actor:` or decorate a class with @actor from cowboy_sdk")
}

func lookupMethod(t *vm.Thread, cls *object.Class, self *object.Instance, name string) (object.Value, error) {
	if name == "" {
		return nil, object.Errorf(object.AttributeError, "no method named")
	}
	if a, _ := cls.Lookup(name); a == nil {
		return nil, object.Errorf(object.AttributeError, "actor %s has no method '%s'", cls.Name, name)
	}
	fn, err := object.GetAttr(t, self, name)
	if err != nil {
		return nil, err
	}
	if ok, _ := object.HasAttr(t, fn, "__call__"); !ok {
		if _, isB := fn.(*object.BoundMethod); !isB {
			return nil, object.Errorf(object.AttributeError, "'%s' of actor %s is not a method", name, cls.Name)
		}
	}
	return fn, nil
}

func decodeArgs(t *vm.Thread, b []byte) ([]object.Value, error) {
	if len(b) == 0 {
		return nil, nil
	}
	v, err := cbor.Decode(t, b)
	if err != nil {
		return nil, err
	}
	l, ok := v.(*object.List)
	if !ok {
		return nil, object.Errorf(object.TypeError, "message arguments must be a CBOR array, got %s", v.Type().Name)
	}
	return l.Elems, nil
}

// loadAttrs restores the persisted instance attributes and returns their
// encoding, so saveAttrs writes only when something changed.
func loadAttrs(t *vm.Thread, h Host, self *object.Instance) ([]byte, error) {
	raw, ok, err := hostRead(t, h, NSAttrs, attrsKey)
	if err != nil || !ok {
		return nil, err
	}
	v, err := cbor.Decode(t, raw)
	if err != nil {
		return nil, fmt.Errorf("actor state record: %w", err)
	}
	d, ok := v.(*object.Dict)
	if !ok {
		return nil, fmt.Errorf("actor state record is a %s, not a dict", v.Type().Name)
	}
	for _, kv := range d.Items() {
		name, ok := kv[0].(object.Str)
		if !ok {
			return nil, fmt.Errorf("actor state record has a non-str key")
		}
		self.Dict.Set(string(name), kv[1])
	}
	return raw, nil
}

func saveAttrs(t *vm.Thread, h Host, self *object.Instance, before []byte) error {
	d := object.NewDict()
	var err error
	self.Dict.Each(func(name string, v object.Value) {
		if err == nil {
			err = d.Set(t, object.Str(name), v)
		}
	})
	if err != nil {
		return err
	}
	if d.Len() == 0 {
		if before != nil {
			return hostDelete(t, h, NSAttrs, attrsKey)
		}
		return nil
	}
	b, err := cbor.Encode(t, d)
	if err != nil {
		return object.Errorf(object.TypeError, "actor attributes cannot be stored: %s (keep actor state to None, bool, int, float, str, bytes, list, tuple and dict)", pyMessage(err))
	}
	if bytes.Equal(b, before) {
		return nil
	}
	return hostWrite(t, h, NSAttrs, attrsKey, b)
}

func pyMessage(err error) string {
	var exc *object.Exception
	if errors.As(err, &exc) {
		return object.ExceptionLine(nil, exc.Value)
	}
	return err.Error()
}

var lineRE = regexp.MustCompile(`File "` + regexp.QuoteMeta(ActorFile) + `", line (\d+)`)

// ErrorSummary is the one-line form of an actor failure for receipts and the
// CLI: "ValueError: amount must be positive (main.py, line 12)", the line
// being the innermost frame in the actor's own file.
func ErrorSummary(err error) string {
	var pe *vm.PyError
	if errors.As(err, &pe) {
		s := pe.LastLine()
		if m := lineRE.FindAllStringSubmatch(pe.Traceback, -1); len(m) > 0 {
			n, _ := strconv.Atoi(m[len(m)-1][1])
			s += fmt.Sprintf(" (%s, line %d)", ActorFile, n)
		}
		return s
	}
	var le *meter.LimitError
	if errors.As(err, &le) {
		return le.Error()
	}
	return err.Error()
}
