package object

import (
	"math"
	"math/big"
	"math/bits"
)

func initNumberMethods() {
	IntClass.Dict.Set("bit_length", method("bit_length", func(c Ctx, args []Value, kw []Kw) (Value, error) {
		if !isIntLike(args[0]) {
			return nil, Errorf(TypeError, "descriptor 'bit_length' requires an 'int' object")
		}
		if i, ok := AsInt64(args[0]); ok && i == 0 {
			return Int(0), nil
		}
		return Int(toBig(args[0]).BitLen()), nil
	}))
	IntClass.Dict.Set("bit_count", method("bit_count", func(c Ctx, args []Value, kw []Kw) (Value, error) {
		if !isIntLike(args[0]) {
			return nil, Errorf(TypeError, "descriptor 'bit_count' requires an 'int' object")
		}
		n := 0
		for _, w := range new(big.Int).Abs(toBig(args[0])).Bits() {
			n += bits.OnesCount(uint(w))
		}
		return Int(n), nil
	}))
	IntClass.Dict.Set("as_integer_ratio", method("as_integer_ratio", func(c Ctx, args []Value, kw []Kw) (Value, error) {
		if !isIntLike(args[0]) {
			return nil, Errorf(TypeError, "descriptor 'as_integer_ratio' requires an 'int' object")
		}
		if err := ArgCount("as_integer_ratio", args[1:], 0, 0); err != nil {
			return nil, err
		}
		n := toBig(args[0])
		if n.IsInt64() {
			return Tuple{Int(n.Int64()), Int(1)}, nil
		}
		v, err := MakeBigInt(new(big.Int).Set(n))
		if err != nil {
			return nil, err
		}
		return Tuple{v, Int(1)}, nil
	}))
	IntClass.Dict.Set("to_bytes", method("to_bytes", func(c Ctx, args []Value, kw []Kw) (Value, error) {
		a, err := UnpackArgs("to_bytes", args[1:], kw, "length?", "byteorder?", "signed?")
		if err != nil {
			return nil, err
		}
		length := int64(1)
		if a[0] != nil {
			if a[0], err = IndexArg(c, a[0]); err != nil {
				return nil, err
			}
			if !isIntLike(a[0]) {
				return nil, Errorf(TypeError, "'%s' object cannot be interpreted as an integer", TypeName(a[0]))
			}
			var ok bool
			if length, ok = AsInt64(a[0]); !ok {
				length = -1 // a big length: negative refused below, positive too long
				if toBig(a[0]).Sign() > 0 {
					length = 1<<16 + 1
				}
			}
		}
		if length < 0 || length > 1<<16 {
			return nil, Errorf(ValueError, "length argument must be non-negative")
		}
		order := "big"
		if a[1] != nil {
			o, _ := a[1].(Str)
			order = string(o)
		}
		if order != "big" && order != "little" {
			return nil, Errorf(ValueError, "byteorder must be either 'little' or 'big'")
		}
		signed := false
		if a[2] != nil {
			signed, _ = Truth(c, a[2])
		}
		v := new(big.Int).Set(toBig(args[0]))
		if v.Sign() < 0 && !signed {
			return nil, Errorf(OverflowError, "can't convert negative int to unsigned")
		}
		// Unsigned needs 0 <= v < 2**(8*length); signed needs
		// -2**(8*length-1) <= v < 2**(8*length-1), that is, v or ~v (which
		// is -v-1 for negative v) has fewer than 8*length bits. As in
		// CPython, 0 and -1 fit even in no bytes (mag is 0 for both).
		mag := v
		if v.Sign() < 0 {
			mag = new(big.Int).Not(v)
		}
		width := int(8 * length)
		if signed {
			width--
		}
		if mag.Sign() != 0 && mag.BitLen() > width {
			return nil, Errorf(OverflowError, "int too big to convert")
		}
		if v.Sign() < 0 {
			v.Add(v, new(big.Int).Lsh(big.NewInt(1), uint(8*length)))
		}
		out := v.FillBytes(make([]byte, length))
		if order == "little" {
			for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
				out[i], out[j] = out[j], out[i]
			}
		}
		return Bytes(out), nil
	}))
	IntClass.Dict.Set("from_bytes", &ClassMethod{Fn: NewBuiltin("from_bytes", func(c Ctx, args []Value, kw []Kw) (Value, error) {
		a, err := UnpackArgs("from_bytes", args[1:], kw, "bytes", "byteorder?", "signed?")
		if err != nil {
			return nil, err
		}
		b, ok := bytesLike(a[0])
		if !ok {
			return nil, Errorf(TypeError, "cannot convert '%s' object to bytes", TypeName(a[0]))
		}
		b = append([]byte(nil), b...)
		order := "big"
		if a[1] != nil {
			o, _ := a[1].(Str)
			order = string(o)
		}
		if order == "little" {
			for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
				b[i], b[j] = b[j], b[i]
			}
		} else if order != "big" {
			return nil, Errorf(ValueError, "byteorder must be either 'little' or 'big'")
		}
		v := new(big.Int).SetBytes(b)
		if a[2] != nil {
			if s, _ := Truth(c, a[2]); s && len(b) > 0 && b[0]&0x80 != 0 {
				v.Sub(v, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
			}
		}
		return MakeBigInt(v)
	})})
	IntClass.Dict.Set("conjugate", method("conjugate", func(c Ctx, args []Value, kw []Kw) (Value, error) { return args[0], nil }))
	FloatClass.Dict.Set("is_integer", method("is_integer", func(c Ctx, args []Value, kw []Kw) (Value, error) {
		f, ok := args[0].(Float)
		if !ok {
			return nil, Errorf(TypeError, "descriptor 'is_integer' requires a 'float' object")
		}
		return MakeBool(!math.IsInf(float64(f), 0) && float64(f) == math.Trunc(float64(f))), nil
	}))
	FloatClass.Dict.Set("as_integer_ratio", method("as_integer_ratio", func(c Ctx, args []Value, kw []Kw) (Value, error) {
		f := float64(args[0].(Float))
		if math.IsNaN(f) {
			return nil, Errorf(ValueError, "cannot convert NaN to integer ratio")
		}
		if math.IsInf(f, 0) {
			return nil, Errorf(OverflowError, "cannot convert Infinity to integer ratio")
		}
		r := new(big.Rat)
		r.SetFloat64(f)
		n, err := MakeBigInt(new(big.Int).Set(r.Num()))
		if err != nil {
			return nil, err
		}
		d, err := MakeBigInt(new(big.Int).Set(r.Denom()))
		return Tuple{n, d}, err
	}))
}

func initBytesMethods() {
	decode := func(c Ctx, args []Value, kw []Kw) (Value, error) {
		b, ok := bytesLike(args[0])
		if !ok {
			return nil, Errorf(TypeError, "decode requires bytes")
		}
		a, err := UnpackArgs("decode", args[1:], kw, "encoding?", "errors?")
		if err != nil {
			return nil, err
		}
		return decodeBytes(c, b, a[0], a[1])
	}
	hexf := func(c Ctx, args []Value, kw []Kw) (Value, error) {
		b, _ := bytesLike(args[0])
		const digits = "0123456789abcdef"
		out := make([]byte, 0, 2*len(b))
		for _, x := range b {
			out = append(out, digits[x>>4], digits[x&15])
		}
		return NewStr(c, string(out))
	}
	fromhex := func(c Ctx, args []Value, kw []Kw) (Value, error) {
		if err := ArgCount("fromhex", args[1:], 1, 1); err != nil {
			return nil, err
		}
		s, ok := args[1].(Str)
		if !ok {
			return nil, Errorf(TypeError, "fromhex() argument must be str, not %s", TypeName(args[1]))
		}
		// Pairs of hex digits, ASCII whitespace allowed between pairs; the
		// error names the offending index as CPython does.
		t := string(s)
		var out []byte
		for i := 0; ; i += 2 {
			for i < len(t) && isSpaceByte(t[i]) {
				i++
			}
			if i >= len(t) {
				break
			}
			hi := unhex(t[i])
			if hi < 0 {
				return nil, Errorf(ValueError, "non-hexadecimal number found in fromhex() arg at position %d", i)
			}
			if i+1 >= len(t) || unhex(t[i+1]) < 0 {
				return nil, Errorf(ValueError, "non-hexadecimal number found in fromhex() arg at position %d", i+1)
			}
			out = append(out, byte(hi<<4|unhex(t[i+1])))
		}
		if k, ok := args[0].(*Class); ok && k == ByteArrayClass {
			return &ByteArray{B: out}, nil
		}
		return Bytes(out), nil
	}
	for _, k := range []*Class{BytesClass, ByteArrayClass} {
		k.Dict.Set("decode", method("decode", decode))
		k.Dict.Set("hex", method("hex", hexf))
		k.Dict.Set("fromhex", &ClassMethod{Fn: NewBuiltin("fromhex", fromhex)})
	}
	ByteArrayClass.Dict.Set("append", method("append", func(c Ctx, args []Value, kw []Kw) (Value, error) {
		if err := ArgCount("append", args[1:], 1, 1); err != nil {
			return nil, err
		}
		v, err := IndexArg(c, args[1])
		if err != nil {
			return nil, err
		}
		if !isIntLike(BaseOf(v)) {
			return nil, Errorf(TypeError, "'%s' object cannot be interpreted as an integer", TypeName(v))
		}
		n, ok := AsInt64(v)
		if !ok || n < 0 || n > 255 {
			return nil, Errorf(ValueError, "byte must be in range(0, 256)")
		}
		if err := Alloc(c, 1); err != nil {
			return nil, err
		}
		ba := args[0].(*ByteArray)
		ba.B = append(ba.B, byte(n))
		return None, nil
	}))
	ByteArrayClass.Dict.Set("extend", method("extend", func(c Ctx, args []Value, kw []Kw) (Value, error) {
		if err := ArgCount("extend", args[1:], 1, 1); err != nil {
			return nil, err
		}
		b, err := bytesFrom(c, "extend", args[1:], nil)
		if err != nil {
			return nil, err
		}
		ba := args[0].(*ByteArray)
		ba.B = append(ba.B, b...)
		return None, nil
	}))
}

func unhex(b byte) int {
	switch {
	case b >= '0' && b <= '9':
		return int(b - '0')
	case b >= 'a' && b <= 'f':
		return int(b-'a') + 10
	case b >= 'A' && b <= 'F':
		return int(b-'A') + 10
	}
	return -1
}
