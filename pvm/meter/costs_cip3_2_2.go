package meter

// Consensus cost table (CIP-3 §2.2.1 "Partial Cost Table (Cycles)" and
// technical spec v2 §3.5 "Partial cost table"). Every number here is part of
// the protocol: changing one changes the cycles charged for the same program
// and therefore consensus. Rows the spec names carry its number; rows the spec
// leaves open are set relative to those (noted "derived") and are fixed here so
// that every node charges the same.
const (
	// CostArith is one Python arithmetic operator (+, -, *, /, //, %, **, unary,
	// bitwise, shifts, comparisons). CIP-3 §2.2.1 "Python Arithmetic Ops": 1.
	CostArith uint64 = 1
	// CostCall is one Python function call, user or builtin. CIP-3 §2.2.1
	// "Python Function Call": 10.
	CostCall uint64 = 10
	// CostDictGetSet is one dict subscript read or write, and also attribute
	// reads/writes that go through a namespace dict. CIP-3 §2.2.1: 3.
	CostDictGetSet uint64 = 3
	// CostListAccess is one list/tuple append, index or index assignment.
	// CIP-3 §2.2.1 "List Append/Access": 2.
	CostListAccess uint64 = 2
	// CostPerChar is string work per character (concatenation, repetition,
	// slicing, join, formatting, comparison of long strings). CIP-3 §2.2.1: 1.
	CostPerChar uint64 = 1

	// CostMailboxSend is a host message send, payload extra. CIP-3 §2.2.1: 80.
	CostMailboxSend uint64 = 80
	// CostBlobPerKiB is a blob commit per KiB. CIP-3 §2.2.1: 40.
	CostBlobPerKiB uint64 = 40
	// CostStorageRead is one storage KV read. CIP-3 §2.2.1: 10.
	CostStorageRead uint64 = 10
	// CostStorageWrite is one storage KV write or delete. CIP-3 §2.2.1: 50.
	CostStorageWrite uint64 = 50
	// CostSecp256k1Verify is one secp256k1 verification. CIP-3 §2.2.1: 3000.
	CostSecp256k1Verify uint64 = 3000
	// CostBLSVerify is one BLS verification. CIP-3 §2.2.1: 8000.
	CostBLSVerify uint64 = 8000
	// CostKeccakPer32 is keccak256 per 32 bytes hashed. CIP-3 §2.2.1: 6.
	// §17.3 lists hash() but not keccak256, so this row stands for it
	// (spec/README.md): see KeccakCost.
	CostKeccakPer32 uint64 = 6

	// CostBase is the floor for an instruction that does no arithmetic,
	// container or string work (load/store of a local, stack shuffles, jumps).
	// Derived: equal to the cheapest named row (arithmetic).
	CostBase uint64 = 1
	// CostAttr is an attribute load or store (a namespace lookup, i.e. a dict
	// get/set). Derived from "Dictionary Get/Set".
	CostAttr uint64 = CostDictGetSet
	// CostGlobal is a global or builtin name lookup (a dict get). Derived from
	// "Dictionary Get/Set".
	CostGlobal uint64 = CostDictGetSet
	// CostBuild is building a container literal, per element added. Derived
	// from "List Append/Access".
	CostBuildPerElem uint64 = CostListAccess
	// CostIterNext is one step of a for loop or iterator. Derived from "List
	// Append/Access" (the common case is indexing a list).
	CostIterNext uint64 = CostListAccess
	// CostPerElem is the per-element surcharge of builtins that iterate (sum,
	// min, max, sorted, any, all, list(), tuple(), dict(), set(), join's
	// element count) and of list concatenation, repetition and slicing.
	// Derived from "List Append/Access".
	CostPerElem uint64 = CostListAccess
	// CostBigIntBase is the base of a big-integer operation; the surcharge is
	// one cycle per 64-bit limb of the larger operand (bitlen/64), issue 4.
	CostBigIntBase uint64 = CostArith
	// CostBigIntPerLimb is the big-integer surcharge per 64 bits of operand.
	CostBigIntPerLimb uint64 = 1
	// CostRaise is raising an exception (explicit or from the runtime).
	// Derived: five function calls' bookkeeping is an overestimate; 20 keeps
	// exception-driven control flow dearer than a call.
	CostRaise uint64 = 20
	// CostTryEnter is entering a try block (pushing a handler).
	CostTryEnter uint64 = 2
	// CostHandlerJump is a jump into an except or finally handler.
	CostHandlerJump uint64 = 5
	// CostItertoolsItem is one item produced by an itertools iterator
	// written in Go (pvm/modules/itertools.go), besides CostPerElem per
	// element of a result tuple. Derived: one iterator step.
	CostItertoolsItem uint64 = CostIterNext
	// CostImportFirst is the first import of a module in a call (issue 4).
	CostImportFirst uint64 = 100
	// CostImportCached is an import served from the module cache (issue 4).
	CostImportCached uint64 = 5
	// CostImportRefused is an import refused by the whitelist (issue 4).
	CostImportRefused uint64 = 50
	// CostMakeFunction is creating a function, closure or class object.
	// Derived: one call.
	CostMakeFunction uint64 = CostCall
	// CostHash is hashing a str/bytes per 8 characters; the base is a dict
	// get/set already charged by the caller.
	CostHashPer8 uint64 = 1
)

// Limits (technical spec v2 §3.2 and §3.3).
const (
	// DefaultMemoryLimit is the per-call heap limit in bytes (§3.2: 10 MiB).
	DefaultMemoryLimit uint64 = 10 << 20
	// MaxCallDepth is the recursion/reentrancy depth cap in Python frames
	// (§3.3 and "Fixed recursion limit: 32").
	MaxCallDepth = 32
	// MaxIntBits is the largest int bit length a result may have (issue 4).
	MaxIntBits = 4096
)

// Object sizes in bytes charged against the memory limit at allocation. They
// are a deterministic model of CPython 3.11 object sizes on 64-bit builds (the
// spec counts memory "from object sizes"), not of Go's heap.
const (
	// SizeObject is the header of any heap object (refcount + type).
	SizeObject uint64 = 16
	// SizeStrHeader is a str's fixed part (PyASCIIObject is 40 bytes + NUL).
	SizeStrHeader uint64 = 49
	// SizeBytesHeader is a bytes' fixed part (PyBytesObject).
	SizeBytesHeader uint64 = 33
	// SizeIntHeader is an int's fixed part; digits are 4 bytes per 30 bits.
	SizeIntHeader uint64 = 24
	// SizeFloat is a float object.
	SizeFloat uint64 = 24
	// SizeListHeader is a list's fixed part; each slot is one pointer.
	SizeListHeader uint64 = 56
	// SizeTupleHeader is a tuple's fixed part; each slot is one pointer.
	SizeTupleHeader uint64 = 40
	// SizePointer is one slot of a list, tuple, dict or set.
	SizePointer uint64 = 8
	// SizeDictHeader is a dict's fixed part.
	SizeDictHeader uint64 = 64
	// SizeDictEntry is one dict entry (hash, key, value) plus its index slot.
	SizeDictEntry uint64 = 32
	// SizeSetEntry is one set entry (hash, key) plus its index slot.
	SizeSetEntry uint64 = 24
	// SizeInstance is a user instance with its attribute dict header.
	SizeInstance uint64 = 48 + SizeDictHeader
	// SizeFunction is a function or closure object.
	SizeFunction uint64 = 144
	// SizeFrame is a Python frame (locals and stack counted per slot).
	SizeFrame uint64 = 112
)

// Standard-library modules written in Go (pvm/modules: json, re, struct,
// hashlib, decimal) and str.encode/bytes.decode. The spec names only hash()
// (technical spec §17.3: 100 + 1 per byte) and encoding (issue 5: 10 +
// len(input)); the other rows are derived so that work proportional to the
// input costs proportionally, one cycle per byte or character touched, as
// CostPerChar does for strings. Each is charged on top of the CostCall of
// the builtin call itself.
const (
	// CostHashBase is creating a hash object (hashlib.sha256() and friends)
	// or a one-shot hash. Technical spec §17.3 hash(): 100.
	CostHashBase uint64 = 100
	// CostHashPerByte is each byte fed to a hash object (constructor data or
	// update()). Technical spec §17.3 hash(): 1.
	CostHashPerByte uint64 = 1
	// CostCodecBase is one str.encode or bytes.decode (issue 5: 10).
	CostCodecBase uint64 = 10
	// CostCodecPerByte is each byte of the codec's input (issue 5: 1).
	CostCodecPerByte uint64 = 1
	// CostJSONCall is one json.dumps or json.loads. Derived: one call.
	CostJSONCall uint64 = CostCall
	// CostJSONPerValue is each value encoded or decoded (a container
	// element). Derived from "List Append/Access".
	CostJSONPerValue uint64 = CostListAccess
	// CostJSONPerByte is each byte of JSON text written or read. Derived
	// from CostPerChar.
	CostJSONPerByte uint64 = CostPerChar
	// CostStructCall is one struct.pack/unpack/calcsize. Derived: one call.
	CostStructCall uint64 = CostCall
	// CostStructPerByte is each byte of the format string parsed and each
	// byte packed or unpacked. Derived from CostPerChar.
	CostStructPerByte uint64 = CostPerChar
	// CostStructPerItem is each value packed or unpacked. Derived from "List
	// Append/Access".
	CostStructPerItem uint64 = CostListAccess
	// CostRegexCompile is compiling a pattern (re.compile or the first use
	// of a pattern string by a call). Derived: ten calls.
	CostRegexCompile uint64 = 10 * CostCall
	// CostRegexPerPatternByte is each byte of the pattern compiled. RE2's
	// compiled program is linear in the pattern; derived: ten per byte.
	CostRegexPerPatternByte uint64 = 10
	// CostRegexSearch is each search the engine starts (one per match,
	// search, fullmatch, and per match found by findall, finditer, sub and
	// split). Derived from "List Append/Access".
	CostRegexSearch uint64 = CostListAccess
	// CostRegexStepsPerCycle is how many engine steps cost one cycle. A step
	// is an NFA thread run on one input character, an input position
	// visited, or a byte skipped by the literal-prefix scan: the work of
	// RE2, which is at most (input length) x (program size) per search.
	// Derived: a step is a few machine operations, like a quarter of the
	// cheapest instruction.
	CostRegexStepsPerCycle uint64 = 4
	// CostRegexPerMatch is each match produced (Match object, findall item,
	// substitution, split piece). Derived from "List Append/Access" x2.
	CostRegexPerMatch uint64 = 2 * CostListAccess
	// CostDecimalOp is one decimal arithmetic operation, comparison or
	// conversion. Derived: a big-integer op on 28 digits.
	CostDecimalOp uint64 = 5
	// CostDecimalPerDigit is each decimal digit of the operands (apd works
	// on big coefficients). Derived from CostPerChar.
	CostDecimalPerDigit uint64 = 1
)

// The math module (pvm/modules/math.go), computed in software by
// pvm/softfloat. Derived from measured time (docs/benchmarks.md,
// "softfloat") at about 3 ns per cycle, the PVM's rate on its arithmetic
// benchmark (95.8 ms for 29,000,026 cycles).
const (
	// CostMathSimple is a math function that is a few bit operations or one
	// softfloat operation (fabs, copysign, floor, ceil, trunc, modf,
	// frexp, ldexp, isnan, isinf, isfinite, isclose, degrees, radians,
	// nextafter, ulp).
	CostMathSimple uint64 = 2
	// CostMathSqrt is math.sqrt (integer Newton steps on a 126-bit
	// radicand, ~30 ns).
	CostMathSqrt uint64 = 10
	// CostMathFmod is math.fmod (long division of the significands, up to
	// 34 steps of 63 bits, ~10-100 ns).
	CostMathFmod uint64 = 30
	// CostMathElementary is one correctly rounded elementary function on
	// pvm/softfloat's fixed-point fast path (exp, expm1, log, log2, log10,
	// log1p, sin, cos, tan, atan; hypot's base): 0.2-0.5 us measured.
	CostMathElementary uint64 = 150
	// CostMathHeavy is one of the compound functions on the fast path
	// (sinh, cosh, tanh, asinh, acosh, atanh, asin, acos, atan2): 0.4-0.75
	// us measured.
	CostMathHeavy uint64 = 250
	// CostMathPow is math.pow and a float ** that is not a square, a
	// square root, an inverse or an integer power below 64 (~0.6 us).
	CostMathPow uint64 = 250
	// CostMathSlowPath is added when an elementary function's arguments are
	// outside the fast path (huge trigonometric arguments, results within
	// 2**-40 of zero, near overflow, exact ties) and the big.Float
	// evaluation runs instead: 1.5-10 us measured.
	CostMathSlowPath uint64 = 3000
	// CostMathSpecial is added to CostMathHeavy by erf, erfc, gamma and
	// lgamma, which always evaluate in big.Float at 320 bits
	// (pvm/softfloat/special.go): 0.1-1.8 ms measured in
	// pvm/softfloat's BenchmarkSpecial. cbrt (Newton, ~15 us) adds
	// 2*CostMathSlowPath instead.
	CostMathSpecial uint64 = 500000
	// CostMathPerElem is each element of fsum, prod and hypot (fsum adds
	// one more per partial it keeps).
	CostMathPerElem uint64 = CostPerElem
	// CostMathIntPerLimb is gcd, lcm, isqrt, factorial, comb and perm per
	// 64-bit limb of the operands of each big-integer step.
	CostMathIntPerLimb uint64 = CostBigIntPerLimb
)

// Live-heap measurement (docs/decisions.md "PVM: the live-heap limit").
// When the allocation counter would pass the memory limit the VM walks the
// objects reachable from its roots; the call pays for that walk. Derived
// from measured time: BenchmarkHeapWalk and BenchmarkInterpCycle in pvm/vm
// measured, in the same session, 65-140 ns per cycle for walks of 160,000
// tuples, strs or 50,000 instances and 25-43 ns per cycle for the
// interpreter when both were priced at 1 per reference and 8 per object;
// these prices put the walk at or below the interpreter's time per cycle,
// so a program that forces walks costs the node no more per cycle than one
// that computes.
const (
	// CostHeapWalkPerRef is each reference the walk examines.
	CostHeapWalkPerRef uint64 = 2
	// CostHeapWalkPerObject is each distinct object the walk counts (an
	// insert into the visited set).
	CostHeapWalkPerObject uint64 = 32
)

// KeccakCost is the cycles of keccak256 over n bytes: §17.3's hash() base
// of HostHash plus CIP-3's 6 per 32-byte word, a partial word counting as
// a whole one (docs/decisions.md "CIP-3 leftovers").
func KeccakCost(n uint64) uint64 { return HostHash + CostKeccakPer32*CeilDiv(n, 32) }
