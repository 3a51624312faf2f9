package modules_test

import "testing"

func TestStructErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"struct.pack('<h', 1, 2)", "struct.error: pack expected 1 items for packing (got 2)"},
		{"struct.calcsize('3 h')", "struct.error: bad char in struct format"},
		{"struct.pack('1000000000s', b'')", "MemoryError"},
		{"struct.pack('99999999999999999999s', b'')", "struct.error: total struct size too long"},
		{"struct.Struct('<q').pack(2**64)", "struct.error: argument out of range"},
		{"struct.Struct()", "TypeError: Struct() missing required argument 'format' (pos 1)"},
		{"struct.unpack('<h', 'ab')", "TypeError: a bytes-like object is required, not 'str'"},
		{"type(struct.iter_unpack('<h', b''))()", "TypeError: cannot create '_struct.unpack_iterator' instances"},
	} {
		raises(t, "import struct\n"+c.src+"\n", c.want)
	}
}

// TestStructCost shows packing and unpacking ten times the bytes or items
// costs ten times the variable cycles.
func TestStructCost(t *testing.T) {
	proportional(t, "import struct\nb = struct.pack('Ns', b'')\nstruct.unpack('Ns', b)\n", 1000)
	proportional(t, "import struct\nv = [1] * N\nb = struct.pack('<' + 'q' * N, *v)\n", 100)
	proportional(t, "import struct\nb = bytes(8 * N)\nx = struct.unpack('<Nq', b)\n", 100)
}
