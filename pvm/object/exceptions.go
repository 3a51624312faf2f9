package object

import (
	"fmt"
	"strings"
)

// TraceEntry is one line of a Python traceback.
type TraceEntry struct {
	File string
	Line int
	Func string
	// Frame identifies the frame activation that added the entry, so an
	// exception passing through a frame twice (caught, then re-raised) is
	// listed once.
	Frame int64
}

// ExcState is the exception-specific part of a BaseException instance.
type ExcState struct {
	Args            Tuple
	Cause           Value // __cause__ (raise ... from X), nil if unset
	Context         Value // __context__, the exception being handled, nil if none
	SuppressContext bool  // set by raise ... from
	// Traceback lists frames from the one that raised outward (innermost
	// first); FormatTraceback prints it outermost first as Python does.
	Traceback []TraceEntry
	// SuggestName is the missing name of a NameError or AttributeError the
	// runtime raised; SuggestObj the object searched (AttributeError) or
	// SuggestScopes the namespaces searched in order (NameError). They feed
	// the "Did you mean" hint of the traceback.
	SuggestName   string
	SuggestObj    Value
	SuggestScopes []*StrDict
}

// Exception is a raised Python exception travelling as a Go error.
type Exception struct {
	Value *Instance
}

// Error renders "Type: message" as the last line of a traceback does.
func (e *Exception) Error() string { return ExceptionLine(nil, e.Value) }

// ExceptionLine is the last line of a traceback for exc: its qualified class
// name and str(exc) if non-empty.
func ExceptionLine(c Ctx, exc *Instance) string {
	name := exc.Class.Name
	if exc.Class.Module != "builtins" && exc.Class.Module != "__main__" && exc.Class.Module != "" {
		name = exc.Class.Module + "." + name
	}
	var msg string
	var err error
	if c != nil {
		msg, err = ToStr(c, exc)
		if err != nil {
			msg = "<exception str() failed>"
		}
	} else {
		msg = excStrNoCtx(exc)
	}
	if hint := suggestion(exc); hint != "" {
		msg += ". Did you mean: '" + hint + "'?"
	}
	if msg == "" {
		return name
	}
	return name + ": " + msg
}

func excStrNoCtx(exc *Instance) string {
	if exc.Exc == nil {
		return ""
	}
	switch len(exc.Exc.Args) {
	case 0:
		return ""
	case 1:
		if s, ok := exc.Exc.Args[0].(Str); ok {
			if exc.Class.IsSubclass(KeyError) {
				return strRepr(string(s))
			}
			return string(s)
		}
	}
	return fmt.Sprint(exc.Exc.Args)
}

// NewException makes an instance of an exception class with args, without
// running a user __init__ (used for runtime-raised builtin exceptions).
func NewException(cls *Class, args ...Value) *Instance {
	return &Instance{Class: cls, Dict: NewStrDict(), Exc: &ExcState{Args: Tuple(args)}}
}

// Errorf returns a raised exception of class cls with a formatted message.
// An empty format gives an exception without arguments (MemoryError()).
func Errorf(cls *Class, format string, args ...any) error {
	if format == "" && len(args) == 0 {
		return &Exception{Value: NewException(cls)}
	}
	return &Exception{Value: NewException(cls, Str(fmt.Sprintf(format, args...)))}
}

// Raise wraps an exception instance as a Go error.
func Raise(exc *Instance) error { return &Exception{Value: exc} }

func excStr(c Ctx, in *Instance) (string, error) {
	args := in.Exc.Args
	switch len(args) {
	case 0:
		return "", nil
	case 1:
		if in.Class.IsSubclass(KeyError) {
			return Repr(c, args[0])
		}
		return ToStr(c, args[0])
	}
	return args.Repr(c)
}

func excRepr(c Ctx, in *Instance) (string, error) {
	args := in.Exc.Args
	if len(args) == 1 {
		r, err := Repr(c, args[0])
		if err != nil {
			return "", err
		}
		return in.Class.Name + "(" + r + ")", nil
	}
	r, err := args.Repr(c)
	if err != nil {
		return "", err
	}
	return in.Class.Name + r, nil
}

// Builtin exception classes (the Python 3.11 hierarchy the PVM supports, plus
// DeterminismError for operations the spec forbids).
var (
	BaseException       = newExcClass("BaseException", ObjectClass)
	SystemExit          = newExcClass("SystemExit", BaseException)
	KeyboardInterrupt   = newExcClass("KeyboardInterrupt", BaseException)
	GeneratorExit       = newExcClass("GeneratorExit", BaseException)
	ExceptionClass      = newExcClass("Exception", BaseException)
	StopIteration       = newExcClass("StopIteration", ExceptionClass)
	StopAsyncIteration  = newExcClass("StopAsyncIteration", ExceptionClass)
	ArithmeticError     = newExcClass("ArithmeticError", ExceptionClass)
	FloatingPointError  = newExcClass("FloatingPointError", ArithmeticError)
	OverflowError       = newExcClass("OverflowError", ArithmeticError)
	ZeroDivisionError   = newExcClass("ZeroDivisionError", ArithmeticError)
	AssertionError      = newExcClass("AssertionError", ExceptionClass)
	AttributeError      = newExcClass("AttributeError", ExceptionClass)
	ImportError         = newExcClass("ImportError", ExceptionClass)
	ModuleNotFoundError = newExcClass("ModuleNotFoundError", ImportError)
	LookupError         = newExcClass("LookupError", ExceptionClass)
	IndexError          = newExcClass("IndexError", LookupError)
	KeyError            = newExcClass("KeyError", LookupError)
	MemoryError         = newExcClass("MemoryError", ExceptionClass)
	NameError           = newExcClass("NameError", ExceptionClass)
	UnboundLocalError   = newExcClass("UnboundLocalError", NameError)
	OSError             = newExcClass("OSError", ExceptionClass)
	FileNotFoundError   = newExcClass("FileNotFoundError", OSError)
	PermissionError     = newExcClass("PermissionError", OSError)
	RuntimeError        = newExcClass("RuntimeError", ExceptionClass)
	NotImplementedError = newExcClass("NotImplementedError", RuntimeError)
	RecursionError      = newExcClass("RecursionError", RuntimeError)
	SyntaxError         = newExcClass("SyntaxError", ExceptionClass)
	IndentationError    = newExcClass("IndentationError", SyntaxError)
	TabError            = newExcClass("TabError", IndentationError)
	TypeError           = newExcClass("TypeError", ExceptionClass)
	ValueError          = newExcClass("ValueError", ExceptionClass)
	UnicodeError        = newExcClass("UnicodeError", ValueError)
	UnicodeDecodeError  = newExcClass("UnicodeDecodeError", UnicodeError)
	UnicodeEncodeError  = newExcClass("UnicodeEncodeError", UnicodeError)
	// DeterminismError is raised by operations the Cowboy spec forbids
	// because their result could differ between nodes (technical spec,
	// "Forbidden Operations").
	DeterminismError = newExcClass("DeterminismError", ExceptionClass)
)

// ExceptionClasses lists the builtin exception classes in a fixed order, for
// the builtins namespace.
var ExceptionClasses = []*Class{
	BaseException, SystemExit, KeyboardInterrupt, GeneratorExit, ExceptionClass,
	StopIteration, StopAsyncIteration, ArithmeticError, FloatingPointError, OverflowError,
	ZeroDivisionError, AssertionError, AttributeError, ImportError,
	ModuleNotFoundError, LookupError, IndexError, KeyError, MemoryError,
	NameError, UnboundLocalError, OSError, FileNotFoundError, PermissionError,
	RuntimeError, NotImplementedError, RecursionError, SyntaxError, IndentationError,
	TabError, TypeError, ValueError, UnicodeError, UnicodeDecodeError, UnicodeEncodeError,
	DeterminismError,
}

func newExcClass(name string, base *Class) *Class {
	k := newBuiltinClass(name, false, base)
	k.isExc = true
	return k
}

func init() {
	BaseException.isExc = true
	BaseException.Dict.Set("__init__", method("__init__", func(c Ctx, args []Value, kw []Kw) (Value, error) {
		in, ok := args[0].(*Instance)
		if !ok || in.Exc == nil {
			return nil, Errorf(TypeError, "descriptor '__init__' requires a 'BaseException' object")
		}
		in.Exc.Args = append(Tuple(nil), args[1:]...)
		return None, nil
	}))
	BaseException.Dict.Set("__str__", method("__str__", func(c Ctx, args []Value, kw []Kw) (Value, error) {
		in, ok := args[0].(*Instance)
		if !ok || in.Exc == nil {
			return nil, Errorf(TypeError, "descriptor '__str__' requires a 'BaseException' object")
		}
		s, err := excStr(c, in)
		return Str(s), err
	}))
	BaseException.Dict.Set("with_traceback", method("with_traceback", func(c Ctx, args []Value, kw []Kw) (Value, error) {
		return args[0], nil
	}))
}

// ExcAttr returns the exception-specific attributes (args, __cause__,
// __context__) of an exception instance.
func excAttr(in *Instance, name string) (Value, bool) {
	switch name {
	case "args":
		return in.Exc.Args, true
	case "__cause__":
		if in.Exc.Cause == nil {
			return None, true
		}
		return in.Exc.Cause, true
	case "__context__":
		if in.Exc.Context == nil {
			return None, true
		}
		return in.Exc.Context, true
	case "__suppress_context__":
		return Bool(in.Exc.SuppressContext), true
	case "value":
		if in.Class.IsSubclass(StopIteration) {
			if len(in.Exc.Args) > 0 {
				return in.Exc.Args[0], true
			}
			return None, true
		}
	}
	return nil, false
}

// FormatTraceback renders a full Python traceback for exc, including chained
// causes and contexts, as CPython prints it to stderr.
func FormatTraceback(c Ctx, exc *Instance) string {
	var b strings.Builder
	formatChain(c, &b, exc, 0)
	return b.String()
}

func formatChain(c Ctx, b *strings.Builder, exc *Instance, depth int) {
	if depth < 16 && exc.Exc != nil {
		if cause, ok := exc.Exc.Cause.(*Instance); ok {
			formatChain(c, b, cause, depth+1)
			b.WriteString("\nThe above exception was the direct cause of the following exception:\n\n")
		} else if ctx, ok := exc.Exc.Context.(*Instance); ok && !exc.Exc.SuppressContext {
			formatChain(c, b, ctx, depth+1)
			b.WriteString("\nDuring handling of the above exception, another exception occurred:\n\n")
		}
	}
	if exc.Exc != nil && len(exc.Exc.Traceback) > 0 {
		b.WriteString("Traceback (most recent call last):\n")
		for i := len(exc.Exc.Traceback) - 1; i >= 0; i-- {
			e := exc.Exc.Traceback[i]
			fmt.Fprintf(b, "  File \"%s\", line %d, in %s\n", e.File, e.Line, e.Func)
		}
	}
	b.WriteString(ExceptionLine(c, exc))
	b.WriteString("\n")
}
