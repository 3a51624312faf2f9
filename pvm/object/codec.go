package object

import (
	"fmt"
	"strings"

	"github.com/cowboy-chain/cowboy/pvm/meter"
)

// Text encodings (issue 5 "Encodings and serialization"): str.encode,
// bytes.decode, str(b, encoding) and bytes(s, encoding) know UTF-8 only, with
// errors='strict' only. A codec CPython has but the PVM refuses raises
// LookupError "codec 'latin-1' is not available in the PVM (UTF-8 only)"; a
// name CPython does not know either raises CPython's "unknown encoding: x".
// Each call costs meter.CostCodecBase plus meter.CostCodecPerByte per byte
// of input.

// knownCodecs are CPython codec names (normalised: lower case, '_' and ' '
// as '-') that the PVM refuses, so they get the "not available" message.
var knownCodecs = map[string]bool{}

func init() {
	for _, n := range strings.Fields(`ascii us-ascii 646 latin-1 latin1 latin iso-8859-1 iso8859-1 l1 8859 cp819
		iso-8859-2 iso-8859-3 iso-8859-4 iso-8859-5 iso-8859-6 iso-8859-7 iso-8859-8 iso-8859-9 iso-8859-10
		iso-8859-11 iso-8859-13 iso-8859-14 iso-8859-15 iso-8859-16 utf-16 utf16 utf-16-le utf-16le utf-16-be
		utf-16be utf-32 utf32 utf-32-le utf-32le utf-32-be utf-32be utf-7 utf7 utf-8-sig utf8-sig cp1250 cp1251
		cp1252 cp1253 cp1254 cp1255 cp1256 cp1257 cp1258 windows-1250 windows-1251 windows-1252 windows-1253
		windows-1254 windows-1255 windows-1256 windows-1257 windows-1258 cp437 cp850 cp852 cp866 cp932 cp936
		cp949 cp950 big5 big5hkscs gbk gb2312 gb18030 hz shift-jis shift_jis sjis euc-jp eucjp euc-kr euckr
		iso-2022-jp koi8-r koi8-u mac-roman macroman mac-cyrillic idna punycode raw-unicode-escape
		unicode-escape palmos ptcp154 tis-620 utf-8-sig mbcs oem charmap hex base64 zlib bz2 rot13 rot-13 uu
		quopri hex-codec base64-codec`) {
		knownCodecs[n] = true
	}
}

// checkCodec accepts the spellings of UTF-8 and errors='strict' and refuses
// everything else.
func checkCodec(op string, enc, errs Value) error {
	if enc != nil {
		s, ok := enc.(Str)
		if !ok {
			return Errorf(TypeError, "%s() argument 'encoding' must be str, not %s", op, TypeName(enc))
		}
		norm := strings.ToLower(strings.NewReplacer("_", "-", " ", "-").Replace(string(s)))
		switch {
		case norm == "utf-8" || norm == "utf8" || norm == "u8" || norm == "utf" || norm == "cp65001":
		case knownCodecs[norm]:
			return Errorf(LookupError, "codec '%s' is not available in the PVM (UTF-8 only)", string(s))
		default:
			return Errorf(LookupError, "unknown encoding: %s", string(s))
		}
	}
	if errs != nil {
		s, ok := errs.(Str)
		if !ok {
			return Errorf(TypeError, "%s() argument 'errors' must be str, not %s", op, TypeName(errs))
		}
		if s != "strict" {
			return Errorf(LookupError, "error handler '%s' is not available in the PVM (strict only)", string(s))
		}
	}
	return nil
}

// decodeBytes is bytes.decode: UTF-8, strict, with CPython's
// UnicodeDecodeError messages.
func decodeBytes(c Ctx, b []byte, enc, errs Value) (Value, error) {
	if err := checkCodec("decode", enc, errs); err != nil {
		return nil, err
	}
	if err := Charge(c, meter.CostCodecBase+uint64(len(b))*meter.CostCodecPerByte); err != nil {
		return nil, err
	}
	if err := utf8Error(b); err != nil {
		return nil, err
	}
	return NewStr(c, string(b))
}

// encodeStr is str.encode: UTF-8, strict. PVM strings are valid UTF-8, so
// encoding cannot fail. perByte is false when the caller has already charged
// the per-byte part (str methods charge CostPerChar per byte of the receiver
// before they run).
func encodeStr(c Ctx, s string, enc, errs Value, perByte bool) (Bytes, error) {
	if err := checkCodec("encode", enc, errs); err != nil {
		return "", err
	}
	cost := meter.CostCodecBase
	if perByte {
		cost += uint64(len(s)) * meter.CostCodecPerByte
	}
	if err := Charge(c, cost); err != nil {
		return "", err
	}
	if err := Alloc(c, meter.SizeBytesHeader+uint64(len(s))); err != nil {
		return "", err
	}
	return Bytes(s), nil
}

// utf8Error returns CPython's UnicodeDecodeError for the first invalid
// sequence of b, or nil (the rules of CPython's utf-8 decoder: which bytes
// are invalid start bytes, which continuation ranges each lead byte allows,
// and when the data simply ends early).
func utf8Error(b []byte) error {
	for i := 0; i < len(b); {
		c := b[i]
		if c < 0x80 {
			i++
			continue
		}
		var n int
		lo, hi := byte(0x80), byte(0xbf)
		switch {
		case c >= 0xc2 && c <= 0xdf:
			n = 1
		case c == 0xe0:
			n, lo = 2, 0xa0
		case c == 0xed:
			n, hi = 2, 0x9f
		case c >= 0xe1 && c <= 0xef:
			n = 2
		case c == 0xf0:
			n, lo = 3, 0x90
		case c == 0xf4:
			n, hi = 3, 0x8f
		case c >= 0xf1 && c <= 0xf3:
			n = 3
		default:
			return decodeErr(b, i, i+1, "invalid start byte")
		}
		j := i + 1
		for k := 0; k < n; k++ {
			if j >= len(b) {
				return decodeErr(b, i, len(b), "unexpected end of data")
			}
			l, h := byte(0x80), byte(0xbf)
			if k == 0 {
				l, h = lo, hi
			}
			if b[j] < l || b[j] > h {
				return decodeErr(b, i, j, "invalid continuation byte")
			}
			j++
		}
		i = j
	}
	return nil
}

func decodeErr(b []byte, start, end int, reason string) error {
	// As CPython: args are (encoding, object, start, end, reason), also
	// readable as attributes; str() formats them (unicodeErrorStr).
	exc := NewException(UnicodeDecodeError, Str("utf-8"), Bytes(b), Int(start), Int(end), Str(reason))
	for i, name := range []string{"encoding", "object", "start", "end", "reason"} {
		exc.Dict.Set(name, exc.Exc.Args[i])
	}
	return Raise(exc)
}

// unicodeErrorStr is str() of a UnicodeDecodeError made with the five
// standard arguments; ok is false for any other shape of args.
func unicodeErrorStr(in *Instance) (string, bool) {
	a := in.Exc.Args
	if !in.Class.IsSubclass(UnicodeDecodeError) || len(a) != 5 {
		return "", false
	}
	enc, ok1 := a[0].(Str)
	obj, ok2 := bytesLike(a[1])
	start, ok3 := AsInt64(a[2])
	end, ok4 := AsInt64(a[3])
	reason, ok5 := a[4].(Str)
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 {
		return "", false
	}
	if end-start == 1 && start >= 0 && start < int64(len(obj)) {
		return fmt.Sprintf("'%s' codec can't decode byte %#02x in position %d: %s", enc, obj[start], start, reason), true
	}
	return fmt.Sprintf("'%s' codec can't decode bytes in position %d-%d: %s", enc, start, end-1, reason), true
}
