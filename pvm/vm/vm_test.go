package vm

import (
	"bytes"
	"errors"
	"testing"

	"github.com/cowboy-chain/cowboy/pvm/compile"
	"github.com/cowboy-chain/cowboy/pvm/meter"
	"github.com/cowboy-chain/cowboy/pvm/object"
)

// asm builds a code object from (opcode, arg) pairs, for tests that exercise
// the interpreter without the parser.
func asm(name string, consts []object.Value, names []string, varnames []string, argc int, prog ...int) *compile.Code {
	c := &compile.Code{Name: name, QualName: name, Filename: "t.py", FirstLine: 1, Consts: consts, Names: names, Varnames: varnames, ArgCount: argc, MaxStack: 16}
	for i := 0; i+1 < len(prog); i += 2 {
		c.Instrs = append(c.Instrs, compile.Instr{Op: compile.Opcode(prog[i]), Arg: uint32(prog[i+1])})
		c.Lines = append(c.Lines, int32(i/2+1))
	}
	return c
}

// fibCode is: def fib(n): return n if n < 2 else fib(n-1) + fib(n-2)
func fibCode() *compile.Code {
	return asm("fib", []object.Value{object.Int(2), object.Int(1)}, []string{"fib"}, []string{"n"}, 1,
		int(compile.LOAD_FAST), 0, // 0
		int(compile.LOAD_CONST), 0, // 1
		int(compile.COMPARE_OP), int(object.OpLt), // 2
		int(compile.POP_JUMP_IF_FALSE), 6, // 3
		int(compile.LOAD_FAST), 0, // 4
		int(compile.RETURN_VALUE), 0, // 5
		int(compile.LOAD_GLOBAL), 0, // 6
		int(compile.LOAD_FAST), 0,
		int(compile.LOAD_CONST), 1,
		int(compile.BINARY_OP), int(object.OpSub),
		int(compile.CALL), 1,
		int(compile.LOAD_GLOBAL), 0,
		int(compile.LOAD_FAST), 0,
		int(compile.LOAD_CONST), 0,
		int(compile.BINARY_OP), int(object.OpSub),
		int(compile.CALL), 1,
		int(compile.BINARY_OP), int(object.OpAdd),
		int(compile.RETURN_VALUE), 0,
	)
}

func newTestThread(cycles uint64, out *bytes.Buffer) *Thread {
	return NewThread(Options{Meter: meter.New(meter.Limits{Cycles: cycles}), Stdout: out})
}

func TestHandAssembledFib(t *testing.T) {
	th := newTestThread(1<<30, nil)
	g := object.NewStrDict()
	fib := &Function{Code: fibCode(), Globals: g, Name: "fib", QualName: "fib"}
	g.Set("fib", fib)
	r, err := th.Call(fib, []object.Value{object.Int(20)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r != object.Int(6765) {
		t.Fatalf("fib(20) = %v", r)
	}
	used := th.Meter().CyclesUsed()
	th2 := newTestThread(1<<30, nil)
	if _, err := th2.Call(fib, []object.Value{object.Int(20)}, nil); err != nil {
		t.Fatal(err)
	}
	if th2.Meter().CyclesUsed() != used {
		t.Fatalf("cycles differ between identical runs: %d vs %d", used, th2.Meter().CyclesUsed())
	}
}

func TestRecursionLimit(t *testing.T) {
	th := newTestThread(1<<30, nil)
	g := object.NewStrDict()
	fib := &Function{Code: fibCode(), Globals: g, Name: "fib", QualName: "fib"}
	g.Set("fib", fib)
	_, err := th.Call(fib, []object.Value{object.Int(40)}, nil) // depth 40 > 32
	var exc *object.Exception
	if !errors.As(err, &exc) || exc.Value.Class != object.RecursionError {
		t.Fatalf("want RecursionError, got %v", err)
	}
	if th.Meter().Depth() != 0 {
		t.Fatalf("depth not restored: %d", th.Meter().Depth())
	}
}

func TestOutOfCyclesIsNotCatchable(t *testing.T) {
	// try: while True: pass / except: return 1
	code := asm("loop", []object.Value{object.Int(1)}, nil, nil, 0,
		int(compile.SETUP_EXCEPT), 3, // 0
		int(compile.JUMP), 1, // 1: loop forever
		int(compile.POP_BLOCK), 0, // 2
		int(compile.POP_TOP), 0, // 3: handler
		int(compile.LOAD_CONST), 0,
		int(compile.RETURN_VALUE), 0,
	)
	th := newTestThread(10_000, nil)
	_, err := th.Call(&Function{Code: code, Globals: object.NewStrDict(), Name: "loop"}, nil, nil)
	if !errors.Is(err, meter.ErrOutOfCycles) {
		t.Fatalf("want out of cycles, got %v", err)
	}
}
