package rpc

import (
	"encoding/json"
	"math/big"
	"strings"
	"testing"
)

func TestQuantityJSON(t *testing.T) {
	tests := []struct {
		in      string
		want    uint64
		wantErr string
	}{
		{`"0x0"`, 0, ""},
		{`"0x1e61"`, 7777, ""},
		{`"0x1E61"`, 7777, ""},
		{`"0xffffffffffffffff"`, 1<<64 - 1, ""},
		{`"0x"`, 0, "no digits"},
		{`"0x00"`, 0, "leading zero"},
		{`"0x01"`, 0, "leading zero"},
		{`"1"`, 0, "0x-prefixed"},
		{`"0X1"`, 0, "0x-prefixed"},
		{`"0x1g"`, 0, "invalid hex digit"},
		{`"0x-1"`, 0, "invalid hex digit"},
		{`"0x+1"`, 0, "invalid hex digit"},
		{`"0x10000000000000000"`, 0, "64 bits"},
		{`1`, 0, "JSON string"},
		{`null`, 0, "JSON string"},
		{`"0x\u0031"`, 0, "escape"},
	}
	for _, tt := range tests {
		var q Quantity
		err := json.Unmarshal([]byte(tt.in), &q)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s: err = %v, want one containing %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil || uint64(q) != tt.want {
			t.Errorf("%s: got %d, %v; want %d", tt.in, q, err, tt.want)
		}
	}
	for _, v := range []uint64{0, 1, 15, 16, 7777, 1<<64 - 1} {
		out, err := json.Marshal(Quantity(v))
		if err != nil {
			t.Fatal(err)
		}
		var back Quantity
		if err := json.Unmarshal(out, &back); err != nil || uint64(back) != v {
			t.Errorf("%d: marshalled %s, back %d, %v", v, out, back, err)
		}
	}
	if out, _ := json.Marshal(Quantity(0)); string(out) != `"0x0"` {
		t.Errorf("zero marshals as %s, want \"0x0\"", out)
	}
}

func TestBigQuantityJSON(t *testing.T) {
	max256 := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	tests := []struct {
		in      string
		want    *big.Int
		wantErr string
	}{
		{`"0x0"`, big.NewInt(0), ""},
		{`"0xde0b6b3a7640000"`, big.NewInt(1e18), ""},
		{`"0x` + strings.Repeat("f", 64) + `"`, max256, ""},
		{`"0x1` + strings.Repeat("0", 64) + `"`, nil, "256 bits"},
		{`"0x"`, nil, "no digits"},
		{`"0x0001"`, nil, "leading zero"},
		{`"100"`, nil, "0x-prefixed"},
		{`100`, nil, "JSON string"},
	}
	for _, tt := range tests {
		var q BigQuantity
		err := json.Unmarshal([]byte(tt.in), &q)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s: err = %v, want one containing %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil || q.Int().Cmp(tt.want) != 0 {
			t.Errorf("%s: got %v, %v; want %v", tt.in, q.Int(), err, tt.want)
		}
		out, err := json.Marshal(&q)
		if err != nil || string(out) != strings.ToLower(tt.in) {
			t.Errorf("%s: marshals back as %s, %v", tt.in, out, err)
		}
	}
	if _, err := json.Marshal(NewBigQuantity(big.NewInt(-1))); err == nil {
		t.Error("a negative amount must not marshal")
	}
	if NewBigQuantity(nil).Int().Sign() != 0 || (*BigQuantity)(nil).Int().Sign() != 0 {
		t.Error("nil must read as zero")
	}
}

func TestBytesJSON(t *testing.T) {
	tests := []struct {
		in      string
		want    string
		wantErr string
	}{
		{`"0x"`, "", ""},
		{`"0x00ff"`, "\x00\xff", ""},
		{`"0x00FF"`, "\x00\xff", ""},
		{`"0x0"`, "", "odd number"},
		{`"00"`, "", "0x-prefixed"},
		{`"0xzz"`, "", "invalid byte"},
		{`[1]`, "", "JSON string"},
	}
	for _, tt := range tests {
		var b Bytes
		err := json.Unmarshal([]byte(tt.in), &b)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s: err = %v, want one containing %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil || string(b) != tt.want {
			t.Errorf("%s: got %x, %v", tt.in, b, err)
		}
	}
	if out, _ := json.Marshal(Bytes{}); string(out) != `"0x"` {
		t.Errorf("empty bytes marshal as %s", out)
	}
	if out, _ := json.Marshal(Bytes(nil)); string(out) != `"0x"` {
		t.Errorf("nil bytes marshal as %s", out)
	}
}

func TestParseBlockRef(t *testing.T) {
	tests := []struct {
		in   string
		want BlockRef
		ok   bool
	}{
		{"latest", LatestBlock, true},
		{"", LatestBlock, true},
		{"earliest", EarliestBlock, true},
		{"12", BlockAt(12), true},
		{"0xc", BlockAt(12), true},
		{"0x0c", BlockRef{}, false},
		{"-1", BlockRef{}, false},
		{"pending", BlockRef{}, false},
	}
	for _, tt := range tests {
		got, err := ParseBlockRef(tt.in)
		if (err == nil) != tt.ok || (tt.ok && got != tt.want) {
			t.Errorf("ParseBlockRef(%q) = %v, %v", tt.in, got, err)
		}
	}
	if out, _ := json.Marshal(BlockAt(255)); string(out) != `"0xff"` {
		t.Errorf("BlockAt(255) marshals as %s", out)
	}
	if h, ok := BlockAt(3).Height(); !ok || h != 3 {
		t.Errorf("BlockAt(3).Height() = %d, %v", h, ok)
	}
	if _, ok := LatestBlock.Height(); ok {
		t.Error("latest has no fixed height")
	}
}
