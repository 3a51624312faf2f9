package types

import (
	"errors"
	"math/big"
	"strings"
	"testing"
)

func bigDec(t *testing.T, s string) *big.Int {
	t.Helper()
	v, ok := new(big.Int).SetString(s, 10)
	if !ok {
		t.Fatalf("bad test constant %q", s)
	}
	return v
}

func TestParseAmount(t *testing.T) {
	max := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	for _, tc := range []struct {
		in   string
		want string // decimal base units
	}{
		{"1.5cby", "1500000000000000000"},
		{"1.5CBY", "1500000000000000000"},
		{"1.5Cby", "1500000000000000000"},
		{"1.5 cby", "1500000000000000000"},
		{"  2cby\n", "2000000000000000000"},
		{"0.000000000000000001cby", "1"},
		{"0.100000000000000000cby", "100000000000000000"},
		{"1000000cby", "1000000000000000000000000"},
		{"0cby", "0"},
		{"1000", "1000"},
		{"0", "0"},
		{"007", "7"},
		{"123456789012345678901234567890", "123456789012345678901234567890"},
		{max.String(), max.String()},
	} {
		got, err := ParseAmount(tc.in)
		if err != nil {
			t.Errorf("ParseAmount(%q): %v", tc.in, err)
			continue
		}
		if got.Cmp(bigDec(t, tc.want)) != 0 {
			t.Errorf("ParseAmount(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestParseAmountRejects(t *testing.T) {
	tooBig := new(big.Int).Lsh(big.NewInt(1), 256).String()
	for _, tc := range []struct {
		in, wantMsg string
	}{
		{"", "empty"},
		{"   ", "empty"},
		{"-1", "cannot be negative"},
		{"-1.5cby", "cannot be negative"},
		{"+1", "without a sign"},
		{"1.5", "for CBY write 1.5cby"},
		{"0.0000000000000000001cby", "more than 18 decimals"},
		{"1.cby", "want digits"},
		{".5cby", "want digits"},
		{"cby", "want digits"},
		{"abc", "want digits"},
		{"1e18", "want digits"},
		{"1,000", "without separators"},
		{"1_000", "without separators"},
		{"1,000,000cby", "without separators"},
		{"1,5cby", "without separators"},
		{"0x10", "want digits"},
		{"1.2.3cby", "want digits"},
		{"1.5eth", "want digits"},
		{"1 000", "want digits"},
		{"١٢cby", "want digits"}, // non-ASCII digits
		{tooBig, "too large"},
	} {
		v, err := ParseAmount(tc.in)
		if err == nil {
			t.Errorf("ParseAmount(%q) = %s, want an error", tc.in, v)
			continue
		}
		if !errors.Is(err, ErrAmount) {
			t.Errorf("ParseAmount(%q): error %v does not wrap ErrAmount", tc.in, err)
		}
		if !strings.Contains(err.Error(), tc.wantMsg) {
			t.Errorf("ParseAmount(%q) error %q, want it to mention %q", tc.in, err, tc.wantMsg)
		}
	}
}

func TestAmountFormatCBY(t *testing.T) {
	for _, tc := range []struct {
		in   string // decimal base units; "nil" for a nil pointer
		want string
	}{
		{"nil", "0 CBY"},
		{"0", "0 CBY"},
		{"1", "0.000000000000000001 CBY"},
		{"1500000000000000000", "1.5 CBY"},
		{"1000000000000000000", "1 CBY"},
		{"1000000000000000000000000", "1,000,000 CBY"},
		{"999999999999999999999", "999.999999999999999999 CBY"},
		{"1234567890000000000000", "1,234.56789 CBY"},
		{"-1500000000000000000", "-1.5 CBY"},
		{"100000000000000000", "0.1 CBY"},
	} {
		var in *big.Int
		if tc.in != "nil" {
			in = bigDec(t, tc.in)
		}
		if got := FormatCBY(in); got != tc.want {
			t.Errorf("FormatCBY(%s) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// FormatCBY and ParseAmount are inverses on every amount: what the CLI
// prints can be typed back.
func TestAmountRoundTrip(t *testing.T) {
	for _, s := range []string{"0", "1", "10", "999", "1000000000000000000", "1500000000000000001", "123456789012345678901234567890"} {
		v := bigDec(t, s)
		text := strings.ReplaceAll(strings.TrimSuffix(FormatCBY(v), " CBY"), ",", "") + "cby"
		back, err := ParseAmount(text)
		if err != nil {
			t.Fatalf("ParseAmount(FormatCBY(%s) = %q): %v", s, text, err)
		}
		if back.Cmp(v) != 0 {
			t.Errorf("round trip of %s through %q gave %s", s, text, back)
		}
	}
}

func TestAmountGroupDigits(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"0", "0"}, {"999", "999"}, {"1000", "1,000"}, {"123456", "123,456"},
		{"1234567", "1,234,567"}, {"-1000", "-1,000"}, {"-12", "-12"},
	} {
		if got := GroupDigits(tc.in); got != tc.want {
			t.Errorf("GroupDigits(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
