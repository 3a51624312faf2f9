package modules_test

import (
	"testing"

	"github.com/cowboy-chain/cowboy/pvm/meter"
)

// TestEncodingRules pins issue 5's rules for str.encode and bytes.decode:
// UTF-8 only, errors='strict' only.
func TestEncodingRules(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"'x'.encode('latin-1')", "LookupError: codec 'latin-1' is not available in the PVM (UTF-8 only)"},
		{"b'x'.decode('ascii')", "LookupError: codec 'ascii' is not available in the PVM (UTF-8 only)"},
		{"'x'.encode('UTF-16')", "LookupError: codec 'UTF-16' is not available in the PVM (UTF-8 only)"},
		{"str(b'x', 'cp1252')", "LookupError: codec 'cp1252' is not available in the PVM (UTF-8 only)"},
		{"bytes('x', 'iso8859_1')", "LookupError: codec 'iso8859_1' is not available in the PVM (UTF-8 only)"},
		{"'x'.encode('latin-9x')", "LookupError: unknown encoding: latin-9x"},
		{"'x'.encode('utf-8', 'ignore')", "LookupError: error handler 'ignore' is not available in the PVM (strict only)"},
		{"b'x'.decode(errors='replace')", "LookupError: error handler 'replace' is not available in the PVM (strict only)"},
		{"str(b'x', errors='surrogateescape')", "LookupError: error handler 'surrogateescape' is not available in the PVM (strict only)"},
		{"b'\\xff'.decode()", "UnicodeDecodeError: 'utf-8' codec can't decode byte 0xff in position 0: invalid start byte"},
	} {
		raises(t, c.src+"\n", c.want)
	}
	out, _ := mustRun(t, "print('é'.encode('utf8', 'strict'), b'\\xc3\\xa9'.decode('UTF_8'), 'a'.encode(encoding='U8'))\n")
	if out != "b'\\xc3\\xa9' é b'a'\n" {
		t.Errorf("got %q", out)
	}
}

// TestEncodingCost pins the price: 10 + len(input) cycles.
func TestEncodingCost(t *testing.T) {
	src := "s = 'x' * N\nb = s.encode()\nt = b.decode()\n"
	setup := variableCost(t, "s = 'x' * N\n", 1000)
	if got := variableCost(t, src, 1000) - setup; got != 2000*meter.CostCodecPerByte {
		t.Errorf("encoding and decoding 1000 bytes cost %d variable cycles, want %d", got, 2000*meter.CostCodecPerByte)
	}
	proportional(t, src, 1000)
	_, one := mustRun(t, "b = ''.encode()\n")
	_, two := mustRun(t, "b = ''.encode()\nb = ''.encode()\n")
	if d := two - one; d < meter.CostCodecBase {
		t.Errorf("an empty encode costs %d cycles, want at least %d", d, meter.CostCodecBase)
	}
}
