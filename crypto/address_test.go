package crypto

import (
	"strings"
	"testing"
)

// The EIP-55 specification's own examples (all caps, all lower, mixed),
// so the checksum is checked against what nobody here wrote.
var eip55Vectors = []string{
	"0x52908400098527886E0F7030069857D2E4169EE7",
	"0x8617E340B3D01FA5F11F306F4090FD50E238070D",
	"0xde709f2102306220921060314715629080e2fb77",
	"0x27b1fdb04752bbc536007a920d24acb045561c26",
	"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
	"0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
	"0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
	"0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
}

func TestChecksumAddressEIP55(t *testing.T) {
	for _, want := range eip55Vectors {
		a, err := ParseAddress(want)
		if err != nil {
			t.Fatalf("%s: %v", want, err)
		}
		if got := ChecksumAddress(a); got != want {
			t.Errorf("ChecksumAddress = %s, want %s", got, want)
		}
		if b, err := ParseAddress(strings.ToLower(want)); err != nil || b != a {
			t.Errorf("%s all lower: %x %v", want, b, err)
		}
		if b, err := ParseAddress("0X" + strings.ToUpper(want[2:])); err != nil || b != a {
			t.Errorf("%s all upper with 0X: %x %v", want, b, err)
		}
	}
}

func TestParseAddressRejects(t *testing.T) {
	for _, tt := range []struct{ in, msg string }{
		{"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD", "checksum mismatch"}, // last letter's case flipped
		{"0x5aaeb6053f3e94c9b9a09f33669435e7ef1beae", "40 hex digits"},
		{"5aaeb6053f3e94c9b9a09f33669435e7ef1beaed", "40 hex digits"},
		{"0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaeg", "invalid address"},
	} {
		if _, err := ParseAddress(tt.in); err == nil || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("ParseAddress(%s): %v, want %q", tt.in, err, tt.msg)
		}
	}
}
