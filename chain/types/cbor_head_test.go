package types

import (
	"encoding/hex"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/crypto"
)

// The hand-written reader's heads against RFC 8949 §4.2.1 at every
// boundary: each width takes exactly the values the next smaller one
// cannot hold, an integer may end the input, and errors name the byte.
func TestReaderHeadBoundaries(t *testing.T) {
	tests := []struct {
		hex   string
		major byte
		arg   uint64
		err   string // empty: accepted
	}{
		{"17", 0, 23, ""},
		{"1817", 0, 0, "integer 23 not in shortest form"},
		{"1818", 0, 24, ""},
		{"1900ff", 0, 0, "integer 255 not in shortest form"},
		{"190100", 0, 256, ""},
		{"1a0000ffff", 0, 0, "integer 65535 not in shortest form"},
		{"1a00010000", 0, 65536, ""},
		{"1b00000000ffffffff", 0, 0, "integer 4294967295 not in shortest form"},
		{"1b0000000100000000", 0, 1 << 32, ""},
		{"5bffffffffffffffff", 2, 1<<64 - 1, ""},
		{"9903e8", 4, 1000, ""},
		{"1b00000001000000", 0, 0, "truncated integer at byte 1"},
		{"", 0, 0, "unexpected end of input at byte 0"},
		{"1f", 0, 0, "reserved value 0x1f at byte 0"},
		{"7c", 0, 0, "reserved value 0x7c at byte 0"},
	}
	for _, tt := range tests {
		b, err := hex.DecodeString(tt.hex)
		if err != nil {
			t.Fatal(err)
		}
		r := &reader{b: b}
		major, arg, err := r.head()
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: err %v, want %q", tt.hex, err, tt.err)
			}
			continue
		}
		if err != nil || major != tt.major || arg != tt.arg || r.pos != len(b) {
			t.Errorf("%s: major %d arg %d pos %d err %v, want %d %d %d", tt.hex, major, arg, r.pos, err, tt.major, tt.arg, len(b))
		}
	}
}

// Byte strings, arrays and bignums at their length limits.
func TestReaderLengthLimits(t *testing.T) {
	rd := func(h string) *reader {
		b, err := hex.DecodeString(strings.ReplaceAll(h, " ", ""))
		if err != nil {
			t.Fatal(err)
		}
		return &reader{b: b}
	}
	if p, err := rd("43010203").bytes(3); err != nil || len(p) != 3 {
		t.Errorf("3-byte string with max 3: %x %v", p, err)
	}
	if _, err := rd("43010203").bytes(2); err == nil {
		t.Error("3-byte string with max 2 accepted")
	}
	if _, err := rd("440102 03").bytes(10); err == nil {
		t.Error("4-byte string with 3 bytes left accepted")
	}
	if n, err := rd("83010203").array(); err != nil || n != 3 {
		t.Errorf("array of 3 with 3 bytes left: %d %v", n, err)
	}
	if _, err := rd("84010203").array(); err == nil || !strings.Contains(err.Error(), "array of 4 items longer than input") {
		t.Errorf("array of 4 with 3 bytes left: %v", err)
	}
	// A 128-bit bignum takes at most 16 bytes.
	if v, err := rd("c2 50 ffffffffffffffffffffffffffffffff").bigUint(128); err != nil || v.BitLen() != 128 {
		t.Errorf("16-byte bignum with 128 bits: %v %v", v, err)
	}
	if _, err := rd("c2 51 01ffffffffffffffffffffffffffffffff").bigUint(128); err == nil {
		t.Error("17-byte bignum accepted for 128 bits")
	}
	if v, err := rd("1b ffffffffffffffff").bigUint(128); err != nil || !v.IsUint64() || v.Uint64() != 1<<64-1 {
		t.Errorf("plain uint: %v %v", v, err)
	}
	if _, err := rd("").bigUint(128); err == nil {
		t.Error("bignum from empty input")
	}
}

func TestReaderEnd(t *testing.T) {
	r := &reader{b: []byte{1, 2, 3, 4}, pos: 1}
	if err := r.end(); err == nil || !strings.Contains(err.Error(), "3 trailing bytes") {
		t.Errorf("end with 3 bytes left: %v", err)
	}
	r.pos = 4
	if err := r.end(); err != nil {
		t.Errorf("end at the end: %v", err)
	}
}

// Size is the encoded length, before and after it is cached, and
// max_tx_size is inclusive: a transaction of exactly 128 KiB decodes, one
// byte more does not.
func TestTxSizeAndMaxTxSize(t *testing.T) {
	to := Address{0x42}
	k, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	build := func(payload int) *Tx {
		tx := &Tx{ChainID: 7, Nonce: 1, To: &to, CyclesLimit: 10_000, MaxFeePerCycle: 1, MaxFeePerCell: 1, Payload: make([]byte, payload)}
		tx.Sign(k)
		return tx
	}
	tx := build(10)
	if got, want := tx.Size(), len(tx.Encode()); got != want || got == 0 {
		t.Fatalf("Size() = %d, encoding is %d bytes", got, want)
	}
	if got := tx.Size(); got != len(tx.Encode()) {
		t.Fatalf("cached Size() = %d", got)
	}
	// The payload's length head grows with it; find the payload that
	// makes the whole transaction exactly MaxTxSize.
	p := MaxTxSize - (len(build(70_000).Encode()) - 70_000)
	exact := build(p)
	if n := len(exact.Encode()); n != MaxTxSize {
		t.Fatalf("built %d bytes, want %d", n, MaxTxSize)
	}
	if _, err := DecodeTx(exact.Encode()); err != nil {
		t.Fatalf("a transaction of exactly max_tx_size: %v", err)
	}
	over := build(p + 1)
	if _, err := DecodeTx(over.Encode()); err == nil || !strings.Contains(err.Error(), "exceeds max_tx_size") {
		t.Fatalf("a transaction one byte over max_tx_size: %v", err)
	}
}

func TestReaderPeekNull(t *testing.T) {
	r := &reader{b: []byte{0xf6, 0x01}}
	if !r.peekNull() || r.pos != 1 {
		t.Fatalf("null not taken: pos %d", r.pos)
	}
	if r.peekNull() || r.pos != 1 {
		t.Fatalf("0x01 taken as null: pos %d", r.pos)
	}
	r.pos = 2
	if r.peekNull() || r.pos != 2 {
		t.Fatalf("null at the end of input: pos %d", r.pos)
	}
}

// The writer's heads at every width boundary (RFC 8949 §4.2.1 shortest
// form): the last value of a width and the first of the next.
func TestAppendHeadBoundaries(t *testing.T) {
	tests := []struct {
		n   uint64
		hex string
	}{
		{23, "17"}, {24, "1818"},
		{0xff, "18ff"}, {0x100, "190100"},
		{0xffff, "19ffff"}, {0x10000, "1a00010000"},
		{0xffffffff, "1affffffff"}, {1 << 32, "1b0000000100000000"},
	}
	for _, tt := range tests {
		if got := hex.EncodeToString(appendHead(nil, majorUint, tt.n)); got != tt.hex {
			t.Errorf("appendHead(%d) = %s, want %s", tt.n, got, tt.hex)
		}
	}
}
