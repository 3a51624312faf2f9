package modules

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"

	"github.com/cowboy-chain/cowboy/pvm/meter"
	"github.com/cowboy-chain/cowboy/pvm/object"
	"github.com/cowboy-chain/cowboy/pvm/vm"
)

// The struct module: pack, unpack, calcsize, iter_unpack, unpack_from,
// pack_into and the Struct class, with CPython 3.11's formats, sizes,
// alignment and error messages.
//
// Formats: an optional first character chooses byte order and sizes: '@'
// (the default) native order, sizes and alignment; '=' native order with
// standard sizes; '<' little-endian; '>' and '!' big-endian. "Native" is
// fixed to what CPython does on 64-bit Linux (little-endian, long and
// size_t of 8 bytes) so the bytes never depend on the node's CPU. Codes: x
// (pad byte), c, b, B, ?, h, H, i, I, l, L, q, Q, n, N and P (native only),
// e, f, d (IEEE-754 binary16, binary32, binary64), s and p (byte strings).
//
// Floats: 'f' and 'e' convert between binary64 and binary32/binary16 with
// integer code on the IEEE bit patterns (round half to even, as a C cast
// does), never with the host FPU, so every node produces the same bits.
//
// Metering: meter.CostStructCall per call, meter.CostStructPerByte per
// character of the format and per byte packed or unpacked, and
// meter.CostStructPerItem per value.

func init() { register(vm.ModuleDef{Name: "struct", Load: loadStruct}) }

// structMod is the per-call state of the module: its classes.
type structMod struct {
	errCls, structCls, iterCls *object.Class
}

// structCode is one format code with a repeat count.
type structCode struct {
	c      byte
	size   int // bytes of one item
	count  int // repeat count (for s and p: the string length)
	offset int // byte offset of the first item
}

// structFormat is a parsed format string.
type structFormat struct {
	text   string
	little bool
	native bool // '@': native sizes and alignment
	codes  []structCode
	size   int // calcsize
	items  int // values packed or unpacked
}

func (m *structMod) fail(format string, args ...any) error {
	return object.Errorf(m.errCls, format, args...)
}

// codeSize gives the size of a code in native (@) or standard mode; ok is
// false for a code the mode does not have.
func codeSize(c byte, native bool) (int, bool) {
	switch c {
	case 'x', 'c', 'b', 'B', '?', 's', 'p':
		return 1, true
	case 'h', 'H', 'e':
		return 2, true
	case 'i', 'I', 'f':
		return 4, true
	case 'l', 'L':
		if native {
			return 8, true
		}
		return 4, true
	case 'q', 'Q', 'd':
		return 8, true
	case 'n', 'N', 'P':
		return 8, native
	}
	return 0, false
}

// parseFormat is CPython's prepare_s: whitespace between codes is ignored,
// a count may precede a code, native mode aligns each code to its size.
func (m *structMod) parseFormat(c object.Ctx, v object.Value) (*structFormat, error) {
	var text string
	switch x := v.(type) {
	case object.Str:
		text = string(x)
	case object.Bytes:
		text = string(x)
	default:
		return nil, object.Errorf(object.TypeError, "Struct() argument 1 must be a str or bytes object, not %s", object.TypeName(v))
	}
	if err := object.Charge(c, meter.CostStructCall+uint64(len(text))*meter.CostStructPerByte); err != nil {
		return nil, err
	}
	f := &structFormat{text: text, little: true}
	s := text
	native := true
	if len(s) > 0 {
		switch s[0] {
		case '@':
			s = s[1:]
		case '=', '<':
			native, s = false, s[1:]
		case '>', '!':
			native, f.little, s = false, false, s[1:]
		}
	}
	const maxSize = math.MaxInt64
	size := 0
	for i := 0; i < len(s); {
		ch := s[i]
		i++
		switch ch {
		case ' ', '\t', '\n', '\r', '\v', '\f':
			continue
		}
		num := 1
		if ch >= '0' && ch <= '9' {
			num = int(ch - '0')
			for i < len(s) && s[i] >= '0' && s[i] <= '9' {
				if num > (maxSize-9)/10 {
					return nil, m.fail("total struct size too long")
				}
				num = num*10 + int(s[i]-'0')
				i++
			}
			if i >= len(s) {
				return nil, m.fail("repeat count given without format specifier")
			}
			ch = s[i]
			i++
		}
		sz, ok := codeSize(ch, native)
		if !ok {
			return nil, m.fail("bad char in struct format")
		}
		if native && sz > 1 && ch != 's' && ch != 'p' {
			size = (size + sz - 1) / sz * sz
		}
		code := structCode{c: ch, size: sz, count: num, offset: size}
		switch ch {
		case 's', 'p':
			f.items++
		case 'x':
		default:
			f.items += num
		}
		if num > (maxSize-size)/sz {
			return nil, m.fail("total struct size too long")
		}
		size += num * sz
		if num > 0 || ch == 's' || ch == 'p' {
			f.codes = append(f.codes, code)
		}
	}
	f.size = size
	f.native = native
	return f, nil
}

// toBig returns an int-like value as a big.Int, calling __index__ on
// instances that define it.
func toBig(c object.Ctx, v object.Value) (*big.Int, bool, error) {
	switch x := v.(type) {
	case object.Int:
		return big.NewInt(int64(x)), true, nil
	case object.Bool:
		if x {
			return big.NewInt(1), true, nil
		}
		return big.NewInt(0), true, nil
	case *object.BigInt:
		return x.Big(), true, nil
	case *object.Instance:
		if ix, _ := x.Class.Lookup("__index__"); ix != nil {
			r, err := object.Index(c, x)
			if err != nil {
				return nil, false, err
			}
			return toBig(c, r)
		}
	}
	return nil, false, nil
}

var (
	bigMinI64 = big.NewInt(math.MinInt64)
	bigMaxI64 = big.NewInt(math.MaxInt64)
	bigMaxU64 = new(big.Int).SetUint64(math.MaxUint64)
)

// packInt converts v for an integer code, with CPython's range errors:
// values outside C long (signed codes) or unsigned long (unsigned codes) are
// "argument out of range"; values inside it but outside the code's range get
// the code's own message.
// little is the format's byte order: CPython's big-endian packers name h
// and H by their code ("'h' format requires ..."), the little-endian and
// native ones as "short"/"ushort".
func (m *structMod) packInt(c object.Ctx, code byte, size int, v object.Value, little bool) (uint64, error) {
	n, ok, err := toBig(c, v)
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, m.fail("required argument is not an integer")
	}
	signed := code == 'b' || code == 'h' || code == 'i' || code == 'l' || code == 'q' || code == 'n'
	// CPython's big-endian q and Q go through _PyLong_AsByteArray, whose
	// overflow message is "int too large to convert" (also for a negative
	// Q); every other packer says "argument out of range".
	if !little && (code == 'q' || code == 'Q') {
		lo, hi := bigMinI64, bigMaxI64
		if code == 'Q' {
			lo, hi = new(big.Int), bigMaxU64
		}
		if n.Cmp(lo) < 0 || n.Cmp(hi) > 0 {
			return 0, m.fail("int too large to convert")
		}
	}
	// b, B, h, H go through C long even when unsigned.
	viaLong := signed || code == 'B' || code == 'H'
	if viaLong {
		if n.Cmp(bigMinI64) < 0 || n.Cmp(bigMaxI64) > 0 {
			return 0, m.fail("argument out of range")
		}
		x := n.Int64()
		var lo, hi int64
		switch size {
		case 1:
			lo, hi = math.MinInt8, math.MaxInt8
		case 2:
			lo, hi = math.MinInt16, math.MaxInt16
		case 4:
			lo, hi = math.MinInt32, math.MaxInt32
		default:
			lo, hi = math.MinInt64, math.MaxInt64
		}
		if !signed {
			lo, hi = 0, int64(1)<<(8*size)-1
		}
		if x < lo || x > hi {
			switch code {
			case 'b':
				return 0, m.fail("byte format requires -128 <= number <= 127")
			case 'B':
				return 0, m.fail("ubyte format requires 0 <= number <= 255")
			case 'h':
				if little {
					return 0, m.fail("short format requires -32768 <= number <= 32767")
				}
			case 'H':
				if little {
					return 0, m.fail("ushort format requires 0 <= number <= 65535")
				}
			}
			return 0, m.fail("'%c' format requires %d <= number <= %d", code, lo, hi)
		}
		return uint64(x), nil
	}
	if n.Sign() < 0 {
		if code == 'P' && n.Cmp(bigMinI64) >= 0 {
			return uint64(n.Int64()), nil
		}
		return 0, m.fail("argument out of range")
	}
	if n.Cmp(bigMaxU64) > 0 {
		return 0, m.fail("argument out of range")
	}
	x := n.Uint64()
	if size < 8 && x >= uint64(1)<<(8*size) {
		return 0, m.fail("'%c' format requires 0 <= number <= %d", code, uint64(1)<<(8*size)-1)
	}
	return x, nil
}

func (m *structMod) packFloat(c object.Ctx, v object.Value) (float64, error) {
	switch x := v.(type) {
	case object.Float:
		return float64(x), nil
	case object.Int, object.Bool, *object.BigInt:
		f, _, err := object.ToFloat(x)
		if err != nil {
			return 0, m.fail("required argument is not a float")
		}
		return f, nil
	case *object.Instance:
		if fl, _ := x.Class.Lookup("__float__"); fl != nil {
			r, err := c.Call(fl, []object.Value{x}, nil)
			if err != nil {
				return 0, err
			}
			if f, ok := r.(object.Float); ok {
				return float64(f), nil
			}
		}
	}
	return 0, m.fail("required argument is not a float")
}

// f64To packs a binary64 into an IEEE binary format with expBits exponent
// and manBits fraction bits, rounding half to even; overflow reports a
// finite value that rounded to infinity.
func f64To(x float64, expBits, manBits uint) (b uint64, overflow bool) {
	u := math.Float64bits(x)
	sign := (u >> 63) << (expBits + manBits)
	exp := int(u >> 52 & 0x7ff)
	frac := u & (1<<52 - 1)
	maxExp := uint64(1)<<expBits - 1
	switch {
	case exp == 0x7ff && frac != 0: // NaN: keep the top of the payload, quiet
		return sign | maxExp<<manBits | frac>>(52-manBits) | 1<<(manBits-1), false
	case exp == 0x7ff:
		return sign | maxExp<<manBits, false
	case exp == 0 && frac == 0:
		return sign, false
	}
	// x = mant * 2**e exactly.
	mant, e := frac|1<<52, exp-1075
	if exp == 0 {
		mant, e = frac, -1074
	}
	bias := 1<<(expBits-1) - 1
	emin := 1 - bias
	lead := e + bits.Len64(mant) - 1
	var shift int
	if lead >= emin {
		shift = bits.Len64(mant) - 1 - int(manBits)
	} else {
		shift = (emin - int(manBits)) - e
	}
	var sig uint64
	switch {
	case shift <= 0:
		sig = mant << uint(-shift)
	case shift > 60:
		sig = 0 // mant < 2**53 is below half the quantum
	default:
		sig = mant >> uint(shift)
		rem := mant & (1<<uint(shift) - 1)
		half := uint64(1) << uint(shift-1)
		if rem > half || (rem == half && sig&1 == 1) {
			sig++
		}
	}
	if lead < emin {
		// Subnormal (a carry into 1<<manBits is the smallest normal, which
		// the same bits encode).
		return sign | sig, false
	}
	if sig == 1<<(manBits+1) {
		sig >>= 1
		lead++
	}
	if lead > bias {
		return sign | maxExp<<manBits, true
	}
	return sign | uint64(lead+bias)<<manBits | sig&(1<<manBits-1), false
}

// f64From widens an IEEE binary value with expBits exponent and manBits
// fraction bits to binary64 (always exact).
func f64From(b uint64, expBits, manBits uint) float64 {
	sign := (b >> (expBits + manBits) & 1) << 63
	exp := int(b >> manBits & (1<<expBits - 1))
	frac := b & (1<<manBits - 1)
	maxExp := 1<<expBits - 1
	bias := 1<<(expBits-1) - 1
	switch {
	case exp == maxExp:
		return math.Float64frombits(sign | 0x7ff<<52 | frac<<(52-manBits))
	case exp == 0 && frac == 0:
		return math.Float64frombits(sign)
	case exp == 0:
		n := bits.Len64(frac)
		lead := 1 - bias - int(manBits) + n - 1
		return math.Float64frombits(sign | uint64(lead+1023)<<52 | (frac<<(53-uint(n)))&(1<<52-1))
	}
	return math.Float64frombits(sign | uint64(exp-bias+1023)<<52 | frac<<(52-manBits))
}

func putUint(b []byte, x uint64, little bool) {
	n := len(b)
	for i := 0; i < n; i++ {
		if little {
			b[i] = byte(x >> (8 * i))
		} else {
			b[n-1-i] = byte(x >> (8 * i))
		}
	}
}

func getUint(b []byte, little bool) uint64 {
	var x uint64
	n := len(b)
	for i := 0; i < n; i++ {
		if little {
			x |= uint64(b[i]) << (8 * i)
		} else {
			x |= uint64(b[n-1-i]) << (8 * i)
		}
	}
	return x
}

// pack writes vals into out (len(out) == f.size).
func (m *structMod) pack(c object.Ctx, f *structFormat, out []byte, vals []object.Value, fname string) error {
	if len(vals) != f.items {
		return m.fail("%s expected %d items for packing (got %d)", fname, f.items, len(vals))
	}
	if err := object.Charge(c, uint64(len(out))*meter.CostStructPerByte+uint64(f.items)*meter.CostStructPerItem); err != nil {
		return err
	}
	vi := 0
	for _, code := range f.codes {
		switch code.c {
		case 'x':
			continue
		case 's', 'p':
			b, ok := bytesOf(vals[vi])
			vi++
			if !ok {
				return m.fail("argument for '%c' must be a bytes object", code.c)
			}
			dst := out[code.offset : code.offset+code.count]
			if code.c == 's' {
				copy(dst, b)
				continue
			}
			if code.count == 0 {
				continue
			}
			n := len(b)
			if n > code.count-1 {
				n = code.count - 1
			}
			copy(dst[1:], b[:n])
			if n > 255 {
				n = 255
			}
			dst[0] = byte(n)
			continue
		}
		for k := 0; k < code.count; k++ {
			v := vals[vi]
			vi++
			dst := out[code.offset+k*code.size : code.offset+(k+1)*code.size]
			switch code.c {
			case 'c':
				b, ok := bytesOf(v)
				if !ok || len(b) != 1 {
					return m.fail("char format requires a bytes object of length 1")
				}
				dst[0] = b[0]
			case '?':
				t, err := object.Truth(c, v)
				if err != nil {
					return err
				}
				if t {
					dst[0] = 1
				}
			case 'e', 'f', 'd':
				x, err := m.packFloat(c, v)
				if err != nil {
					return err
				}
				var u uint64
				switch code.c {
				case 'd':
					u = math.Float64bits(x)
				case 'f':
					var ovf bool
					if u, ovf = f64To(x, 8, 23); ovf {
						return object.Errorf(object.OverflowError, "float too large to pack with f format")
					}
				case 'e':
					var ovf bool
					if u, ovf = f64To(x, 5, 10); ovf {
						return object.Errorf(object.OverflowError, "float too large to pack with e format")
					}
				}
				putUint(dst, u, f.little)
			default:
				u, err := m.packInt(c, code.c, code.size, v, f.little)
				if err != nil {
					return err
				}
				putUint(dst, u, f.little)
			}
		}
	}
	return nil
}

// unpack reads f.size bytes of b into a tuple.
func (m *structMod) unpack(c object.Ctx, f *structFormat, b []byte) (object.Value, error) {
	if err := object.Charge(c, uint64(len(b))*meter.CostStructPerByte+uint64(f.items)*meter.CostStructPerItem); err != nil {
		return nil, err
	}
	if err := object.AllocSlots(c, meter.SizeTupleHeader, uint64(f.items), meter.SizePointer+meter.SizeIntHeader); err != nil {
		return nil, err
	}
	out := make(object.Tuple, 0, f.items)
	for _, code := range f.codes {
		switch code.c {
		case 'x':
			continue
		case 's':
			out = append(out, object.Bytes(b[code.offset:code.offset+code.count]))
			continue
		case 'p':
			if code.count == 0 {
				out = append(out, object.Bytes(""))
				continue
			}
			n := int(b[code.offset])
			if n > code.count-1 {
				n = code.count - 1
			}
			out = append(out, object.Bytes(b[code.offset+1:code.offset+1+n]))
			continue
		}
		if err := object.Alloc(c, uint64(code.count)*uint64(code.size)); err != nil {
			return nil, err
		}
		for k := 0; k < code.count; k++ {
			src := b[code.offset+k*code.size : code.offset+(k+1)*code.size]
			u := getUint(src, f.little)
			switch code.c {
			case 'c':
				out = append(out, object.Bytes(src))
			case '?':
				out = append(out, object.MakeBool(u != 0))
			case 'e':
				out = append(out, object.Float(f64From(u, 5, 10)))
			case 'f':
				out = append(out, object.Float(f64From(u, 8, 23)))
			case 'd':
				out = append(out, object.Float(math.Float64frombits(u)))
			case 'b', 'h', 'i', 'l', 'q', 'n':
				shift := 64 - 8*uint(code.size)
				out = append(out, object.Int(int64(u<<shift)>>shift))
			default:
				if u > math.MaxInt64 {
					v, err := object.MakeBigInt(new(big.Int).SetUint64(u))
					if err != nil {
						return nil, err
					}
					out = append(out, v)
				} else {
					out = append(out, object.Int(int64(u)))
				}
			}
		}
	}
	return out, nil
}

// readBuffer returns the bytes of a buffer argument.
func readBuffer(v object.Value) ([]byte, error) {
	if b, ok := bytesOf(v); ok {
		return b, nil
	}
	return nil, object.Errorf(object.TypeError, "a bytes-like object is required, not '%s'", object.TypeName(v))
}

func (m *structMod) packBytes(c object.Ctx, f *structFormat, vals []object.Value) (object.Value, error) {
	if err := object.Alloc(c, meter.SizeBytesHeader+uint64(f.size)); err != nil {
		return nil, err
	}
	out := make([]byte, f.size)
	if err := m.pack(c, f, out, vals, "pack"); err != nil {
		return nil, err
	}
	return object.Bytes(out), nil
}

func (m *structMod) unpackBytes(c object.Ctx, f *structFormat, buf object.Value) (object.Value, error) {
	b, err := readBuffer(buf)
	if err != nil {
		return nil, err
	}
	if len(b) != f.size {
		return nil, m.fail("unpack requires a buffer of %d bytes", f.size)
	}
	return m.unpack(c, f, b)
}

func (m *structMod) unpackFrom(c object.Ctx, f *structFormat, fname string, args []object.Value, kw []object.Kw) (object.Value, error) {
	a, err := object.UnpackArgs(fname, args, kw, "buffer", "offset?")
	if err != nil {
		return nil, err
	}
	b, err := readBuffer(a[0])
	if err != nil {
		return nil, err
	}
	off := int64(0)
	if a[1] != nil {
		if off, err = intArg(fname, a[1]); err != nil {
			return nil, err
		}
	}
	n := int64(len(b))
	if off < 0 {
		if off+n < 0 {
			return nil, m.fail("offset %d out of range for %d-byte buffer", off, n)
		}
		if -off < int64(f.size) {
			return nil, m.fail("not enough data to unpack %d bytes at offset %d", f.size, off)
		}
		off += n
	}
	if n-off < int64(f.size) {
		return nil, m.fail("unpack_from requires a buffer of at least %d bytes for unpacking %d bytes at offset %d (actual buffer size is %d)", int64(f.size)+off, f.size, off, n)
	}
	return m.unpack(c, f, b[off:off+int64(f.size)])
}

func (m *structMod) packInto(c object.Ctx, f *structFormat, args []object.Value) (object.Value, error) {
	if len(args) < 2 {
		return nil, object.Errorf(object.TypeError, "pack_into expected buffer argument")
	}
	ba, ok := args[0].(*object.ByteArray)
	if !ok {
		return nil, object.Errorf(object.TypeError, "argument must be read-write bytes-like object, not %s", object.TypeName(args[0]))
	}
	off, err := intArg("pack_into", args[1])
	if err != nil {
		return nil, err
	}
	vals := args[2:]
	if len(vals) != f.items {
		return nil, m.fail("pack_into expected %d items for packing (got %d)", f.items, len(vals))
	}
	n := int64(len(ba.B))
	if off < 0 {
		if off+n < 0 {
			return nil, m.fail("offset %d out of range for %d-byte buffer", off, n)
		}
		if -off < int64(f.size) {
			return nil, m.fail("no space to pack %d bytes at offset %d", f.size, off)
		}
		off += n
	}
	if n-off < int64(f.size) {
		return nil, m.fail("pack_into requires a buffer of at least %d bytes for packing %d bytes at offset %d (actual buffer size is %d)", int64(f.size)+off, f.size, off, n)
	}
	tmp := make([]byte, f.size)
	if err := m.pack(c, f, tmp, vals, "pack_into"); err != nil {
		return nil, err
	}
	copy(ba.B[off:], tmp)
	return object.None, nil
}

func (m *structMod) iterUnpack(c object.Ctx, f *structFormat, buf object.Value) (object.Value, error) {
	b, err := readBuffer(buf)
	if err != nil {
		return nil, err
	}
	if f.size == 0 {
		return nil, m.fail("cannot iteratively unpack with a struct of length 0")
	}
	if len(b)%f.size != 0 {
		return nil, m.fail("iterative unpacking requires a buffer of a multiple of %d bytes", f.size)
	}
	return &unpackIter{m: m, f: f, b: append([]byte(nil), b...)}, nil
}

// unpackIter is the iterator iter_unpack returns.
type unpackIter struct {
	m   *structMod
	f   *structFormat
	b   []byte
	pos int
}

// Type implements object.Value.
func (it *unpackIter) Type() *object.Class { return it.m.iterCls }

// Repr implements object.Value.
func (it *unpackIter) Repr(object.Ctx) (string, error) {
	return "<_struct.unpack_iterator object>", nil
}

// Truth implements object.Value.
func (it *unpackIter) Truth(object.Ctx) (bool, error) { return true, nil }

// Hash implements object.Value.
func (it *unpackIter) Hash(object.Ctx) (int64, error) {
	return int64(len(it.b))*31 + int64(it.pos), nil
}

// Next implements object.Iterator.
func (it *unpackIter) Next(c object.Ctx) (object.Value, bool, error) {
	if it.pos >= len(it.b) {
		return nil, false, nil
	}
	v, err := it.m.unpack(c, it.f, it.b[it.pos:it.pos+it.f.size])
	it.pos += it.f.size
	return v, err == nil, err
}

// GetAttr implements object.AttrGetter: __next__ and __length_hint__.
func (it *unpackIter) GetAttr(c object.Ctx, name string) (object.Value, bool, error) {
	switch name {
	case "__length_hint__":
		return object.NewBuiltin(name, func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
			return object.Int((len(it.b) - it.pos) / it.f.size), nil
		}), true, nil
	}
	return nil, false, nil
}

// structObj is a struct.Struct: a compiled format.
type structObj struct {
	m  *structMod
	f  *structFormat
	id int64
}

// Type implements object.Value.
func (s *structObj) Type() *object.Class { return s.m.structCls }

// Repr implements object.Value.
func (s *structObj) Repr(object.Ctx) (string, error) {
	return fmt.Sprintf("<_struct.Struct object at %#x>", s.id), nil
}

// Truth implements object.Value.
func (s *structObj) Truth(object.Ctx) (bool, error) { return true, nil }

// Hash implements object.Value.
func (s *structObj) Hash(object.Ctx) (int64, error) { return s.id, nil }

// GetAttr implements object.AttrGetter: format and size.
func (s *structObj) GetAttr(c object.Ctx, name string) (object.Value, bool, error) {
	switch name {
	case "format":
		return object.Str(s.f.text), true, nil
	case "size":
		return object.Int(s.f.size), true, nil
	}
	return nil, false, nil
}

func loadStruct(t *vm.Thread) (*vm.Module, error) {
	md := vm.NewModule("struct")
	m := &structMod{
		errCls:    errorClass("struct", "error", object.ExceptionClass),
		structCls: nativeClass("_struct", "Struct"),
		iterCls:   nativeClass("_struct", "unpack_iterator"),
	}
	g := md.Globals
	g.Set("error", m.errCls)
	g.Set("Struct", m.structCls)
	// fmtArg parses args[0] as the format of a module-level function.
	fmtArg := func(c object.Ctx, fname string, args []object.Value, min int) (*structFormat, error) {
		if len(args) < min {
			return nil, object.Errorf(object.TypeError, "%s expected at least %d arguments, got %d", fname, min, len(args))
		}
		return m.parseFormat(c, args[0])
	}
	addFunc(g, "calcsize", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		if err := object.ArgCount("calcsize", args, 1, 1); err != nil {
			return nil, err
		}
		f, err := m.parseFormat(c, args[0])
		if err != nil {
			return nil, err
		}
		return object.Int(f.size), nil
	})
	addFunc(g, "pack", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		f, err := fmtArg(c, "pack", args, 1)
		if err != nil {
			return nil, err
		}
		return m.packBytes(c, f, args[1:])
	})
	addFunc(g, "unpack", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		if err := object.ArgCount("unpack", args, 2, 2); err != nil {
			return nil, err
		}
		f, err := m.parseFormat(c, args[0])
		if err != nil {
			return nil, err
		}
		return m.unpackBytes(c, f, args[1])
	})
	addFunc(g, "unpack_from", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		f, err := fmtArg(c, "unpack_from", args, 1)
		if err != nil {
			return nil, err
		}
		return m.unpackFrom(c, f, "unpack_from", args[1:], kw)
	})
	addFunc(g, "iter_unpack", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		if err := object.ArgCount("iter_unpack", args, 2, 2); err != nil {
			return nil, err
		}
		f, err := m.parseFormat(c, args[0])
		if err != nil {
			return nil, err
		}
		return m.iterUnpack(c, f, args[1])
	})
	addFunc(g, "pack_into", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		f, err := fmtArg(c, "pack_into", args, 3)
		if err != nil {
			return nil, err
		}
		return m.packInto(c, f, args[1:])
	})

	m.structCls.New = func(c object.Ctx, cls *object.Class, args []object.Value, kw []object.Kw) (object.Value, error) {
		a, err := object.UnpackArgs("Struct", args, kw, "format")
		if err != nil {
			return nil, err
		}
		f, err := m.parseFormat(c, a[0])
		if err != nil {
			return nil, err
		}
		if err := object.Alloc(c, meter.SizeObject+uint64(len(f.codes))*32); err != nil {
			return nil, err
		}
		return &structObj{m: m, f: f, id: c.NextID()}, nil
	}
	self := func(args []object.Value, name string) (*structObj, error) {
		if len(args) == 0 {
			return nil, object.Errorf(object.TypeError, "unbound method Struct.%s() needs an argument", name)
		}
		s, ok := args[0].(*structObj)
		if !ok {
			return nil, object.Errorf(object.TypeError, "descriptor '%s' for '_struct.Struct' objects doesn't apply to a '%s' object", name, object.TypeName(args[0]))
		}
		return s, nil
	}
	addMethod(m.structCls, "pack", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		s, err := self(args, "pack")
		if err != nil {
			return nil, err
		}
		if err := object.Charge(c, meter.CostStructCall); err != nil {
			return nil, err
		}
		return m.packBytes(c, s.f, args[1:])
	})
	addMethod(m.structCls, "unpack", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		s, err := self(args, "unpack")
		if err != nil {
			return nil, err
		}
		if err := object.ArgCount("unpack", args[1:], 1, 1); err != nil {
			return nil, err
		}
		if err := object.Charge(c, meter.CostStructCall); err != nil {
			return nil, err
		}
		return m.unpackBytes(c, s.f, args[1])
	})
	addMethod(m.structCls, "unpack_from", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		s, err := self(args, "unpack_from")
		if err != nil {
			return nil, err
		}
		if err := object.Charge(c, meter.CostStructCall); err != nil {
			return nil, err
		}
		return m.unpackFrom(c, s.f, "unpack_from", args[1:], kw)
	})
	addMethod(m.structCls, "iter_unpack", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		s, err := self(args, "iter_unpack")
		if err != nil {
			return nil, err
		}
		if err := object.ArgCount("iter_unpack", args[1:], 1, 1); err != nil {
			return nil, err
		}
		if err := object.Charge(c, meter.CostStructCall); err != nil {
			return nil, err
		}
		return m.iterUnpack(c, s.f, args[1])
	})
	addMethod(m.structCls, "pack_into", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		s, err := self(args, "pack_into")
		if err != nil {
			return nil, err
		}
		if err := object.Charge(c, meter.CostStructCall); err != nil {
			return nil, err
		}
		return m.packInto(c, s.f, args[1:])
	})
	return md, nil
}
