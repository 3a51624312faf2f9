package statekey

import (
	"encoding/hex"
	"testing"
)

// TestMake pins the byte layout of docs/state-layout.md: kind, address,
// namespace, slot.
func TestMake(t *testing.T) {
	for _, tt := range []struct {
		name       string
		kind, ns   byte
		addr, slot byte
		want       string
	}{
		{"account", KindAccount, 0, 0xaa, 0, "01" + rep("aa", 20) + "00" + rep("00", 32)},
		{"storage slot", KindActorStorage, 2, 0x01, 0xff, "03" + rep("01", 20) + "02" + rep("ff", 32)},
		{"receipt", KindReceipt, 0, 0, 0x11, "11" + rep("00", 20) + "00" + rep("11", 32)},
	} {
		var a [20]byte
		var s [32]byte
		for i := range a {
			a[i] = tt.addr
		}
		for i := range s {
			s[i] = tt.slot
		}
		k := Make(tt.kind, a, tt.ns, s)
		if got := hex.EncodeToString(k[:]); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, got, tt.want)
		}
	}
}

func rep(s string, n int) string {
	out := ""
	for range n {
		out += s
	}
	return out
}
