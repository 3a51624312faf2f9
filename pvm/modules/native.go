package modules

import (
	"github.com/cowboy-chain/cowboy/pvm/object"
)

// Helpers shared by the modules written in Go (json, re, struct, hashlib,
// decimal).
//
// Classes are built afresh by every Load, never kept in package variables:
// a user class can be mutated from Python (re.error.x = 1), and a class
// shared between calls would carry that state from one call into the next.

// nativeClass makes a class whose instances are Go values (re.Pattern,
// _hashlib.HASH). Calling it from Python raises TypeError, as CPython does
// for these types; instances come from the module's functions.
func nativeClass(module, name string) *object.Class {
	k := &object.Class{Name: name, Module: module, Bases: []*object.Class{object.ObjectClass}, Dict: object.NewStrDict()}
	k.MRO = []*object.Class{k, object.ObjectClass}
	k.New = func(c object.Ctx, cls *object.Class, args []object.Value, kw []object.Kw) (object.Value, error) {
		return nil, object.Errorf(object.TypeError, "cannot create '%s.%s' instances", module, name)
	}
	return k
}

// errorClass makes an exception class of a module (re.error, struct.error).
func errorClass(module, name string, bases ...*object.Class) *object.Class {
	k, err := object.NewClass(name, module, bases, object.NewStrDict())
	if err != nil {
		// Only an inconsistent MRO fails, and the bases here are fixed.
		panic("pvm/modules: " + err.Error())
	}
	return k
}

// goFunc is the signature of a builtin implemented in Go.
type goFunc = func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error)

// addMethod stores a builtin method in a class dict; attribute access through
// an instance binds the instance as args[0].
func addMethod(k *object.Class, name string, fn goFunc) {
	k.Dict.Set(name, &object.Builtin{Name: name, Fn: fn, Method: true})
}

// addFunc stores a builtin function in a module namespace.
func addFunc(g *object.StrDict, name string, fn goFunc) {
	g.Set(name, object.NewBuiltin(name, fn))
}

// bytesOf returns the contents of a bytes-like value (bytes, bytearray).
func bytesOf(v object.Value) ([]byte, bool) {
	switch x := v.(type) {
	case object.Bytes:
		return []byte(x), true
	case *object.ByteArray:
		return x.B, true
	}
	return nil, false
}

// newBytes charges the memory of a bytes object of len(b) bytes built at run
// time and returns it.
func newBytes(c object.Ctx, b []byte) (object.Value, error) {
	if err := object.Alloc(c, 33+uint64(len(b))); err != nil {
		return nil, err
	}
	return object.Bytes(b), nil
}

// intArg converts an int-like argument (int, bool) to int64.
func intArg(fname string, v object.Value) (int64, error) {
	n, ok := object.AsInt64(v)
	if !ok {
		if _, big := v.(*object.BigInt); big {
			return 0, object.Errorf(object.OverflowError, "Python int too large to convert to C ssize_t")
		}
		return 0, object.Errorf(object.TypeError, "'%s' object cannot be interpreted as an integer", object.TypeName(v))
	}
	return n, nil
}
