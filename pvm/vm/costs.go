package vm

import (
	"github.com/cowboy-chain/cowboy/pvm/compile"
	"github.com/cowboy-chain/cowboy/pvm/meter"
)

// opCost is the base cycle cost of each opcode, charged before it runs
// (CIP-3 §2.2.1). Every entry is a named constant of the meter package's
// cost table; size-dependent surcharges are charged by the operations
// themselves. The table has an entry for every byte so that indexing it
// by an Opcode needs no bounds check in the interpreter loop; the entries
// past compile.NumOpcodes are never used.
// The table is consensus: changing an entry changes what every program
// is charged, so the numbers live in pvm/meter with their spec sections,
// and this table only maps opcodes onto them. Opcodes not listed cost
// CostBase: stack shuffles, jumps, loads of constants and locals, each
// about one step of a CPython eval loop.
var opCost = func() [256]uint64 {
	var c [256]uint64
	for i := range c {
		c[i] = meter.CostBase
	}
	c[compile.BINARY_OP] = meter.CostArith
	c[compile.INPLACE_OP] = meter.CostArith
	c[compile.UNARY_OP] = meter.CostArith
	c[compile.COMPARE_OP] = meter.CostArith
	// CALL, CALL_KW, CALL_EX and CALL_METHOD cost the base: the callee
	// charges meter.CostCall once when it is entered, however it is called.
	c[compile.BINARY_SUBSCR] = meter.CostListAccess
	c[compile.STORE_SUBSCR] = meter.CostListAccess
	c[compile.DELETE_SUBSCR] = meter.CostListAccess
	c[compile.LIST_APPEND] = meter.CostListAccess
	c[compile.SET_ADD] = meter.CostDictGetSet
	c[compile.MAP_ADD] = meter.CostDictGetSet
	c[compile.LOAD_ATTR] = meter.CostAttr
	c[compile.STORE_ATTR] = meter.CostAttr
	c[compile.DELETE_ATTR] = meter.CostAttr
	c[compile.LOAD_METHOD] = meter.CostAttr
	c[compile.LOAD_GLOBAL] = meter.CostGlobal
	c[compile.STORE_GLOBAL] = meter.CostGlobal
	c[compile.LOAD_NAME] = meter.CostGlobal
	c[compile.STORE_NAME] = meter.CostGlobal
	// FOR_ITER is charged per step, the iterator's own work (a generator's
	// body, an instance's __next__) on top.
	c[compile.FOR_ITER] = meter.CostIterNext
	c[compile.MAKE_FUNCTION] = meter.CostMakeFunction
	c[compile.BUILD_CLASS] = meter.CostMakeFunction
	c[compile.BUILD_CLASS_KW] = meter.CostMakeFunction
	c[compile.RAISE] = meter.CostRaise
	c[compile.RERAISE] = meter.CostRaise
	c[compile.SETUP_EXCEPT] = meter.CostTryEnter
	c[compile.SETUP_FINALLY] = meter.CostTryEnter
	// The three with instructions each call a special method (__enter__,
	// __exit__ on normal exit, __exit__ on an exception), so each costs a
	// call.
	c[compile.SETUP_WITH] = meter.CostCall
	c[compile.WITH_EXIT] = meter.CostCall
	c[compile.WITH_EXCEPT] = meter.CostCall
	// Coroutines: each await protocol step calls a special method, like
	// with's; END_ASYNC_FOR is an exception check.
	c[compile.GET_AWAITABLE] = meter.CostAttr
	c[compile.GET_AITER] = meter.CostCall
	c[compile.GET_ANEXT] = meter.CostCall
	c[compile.END_ASYNC_FOR] = meter.CostBase
	c[compile.ASYNC_WITH_ENTER] = meter.CostCall
	c[compile.ASYNC_WITH_SETUP] = meter.CostTryEnter
	c[compile.ASYNC_WITH_EXIT] = meter.CostCall
	c[compile.ASYNC_WITH_EXCEPT] = meter.CostCall
	c[compile.IMPORT_NAME] = 0 // charged by the import itself: first, cached or refused
	return c
}()
