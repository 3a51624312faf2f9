// Package object is the PVM's Python object model: the values a Python 3.11
// program manipulates (None, bool, int capped at 4096 bits, float, str, bytes,
// bytearray, list, tuple, dict, set, frozenset, range, slice, classes with C3
// MRO, instances, bound methods, property/staticmethod/classmethod, super and
// the builtin exception hierarchy) and the operations on them.
//
// A Value has a small core (Type, Repr, Truth, Hash); everything else is an
// optional capability found by type assertion, as in starlark-go. Operations
// that may run user code (a __eq__, a __repr__, a key= function) take a Ctx,
// which the interpreter implements; this package never runs bytecode itself.
//
// Determinism: no Go map is ever iterated to produce a Python-visible result,
// dict and set keep insertion order, and hash of str/bytes uses a fixed key.
// Every allocation an untrusted program can size is checked against the
// meter's memory limit before it happens.
package object
