package fees

import (
	"testing"

	"github.com/cowboy-chain/cowboy/chain/types"
)

// TestKindOf pins the class of each transaction shape: only a null
// destination creates an actor (§17.2), and the class fixes the intrinsic
// cost, so a deploy priced as a transfer (or the reverse) would be charged
// the wrong cycles.
func TestKindOf(t *testing.T) {
	var to types.Address
	to[19] = 7
	tests := []struct {
		name string
		tx   *types.Tx
		want Kind
		// intrinsic cycles for 10 bytes of payload, through the class.
		cycles uint64
	}{
		{"null destination deploys", &types.Tx{To: nil, Payload: make([]byte, 10)}, KindDeploy, 50_000},
		{"zero address is a transfer", &types.Tx{To: new(types.Address), Payload: make([]byte, 10)}, KindTransfer, 10_000},
		{"any address is a transfer", &types.Tx{To: &to, Payload: make([]byte, 10)}, KindTransfer, 10_000},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := KindOf(tc.tx)
			if got != tc.want {
				t.Fatalf("KindOf = %v, want %v", got, tc.want)
			}
			if cycles, _ := Intrinsic(got, len(tc.tx.Payload)); cycles != tc.cycles {
				t.Fatalf("intrinsic cycles %d, want %d", cycles, tc.cycles)
			}
		})
	}
}

// TestEffectiveTip pins §2.3's min(tip, max_fee − basefee) on both sides
// of the basefee, at equality, and where max_fee − basefee would wrap.
func TestEffectiveTip(t *testing.T) {
	tests := []struct {
		maxFee, tip, basefee uint64
		want                 uint64
	}{
		{10, 3, 5, 3},  // the tip fits under max_fee
		{10, 8, 5, 5},  // capped by max_fee − basefee
		{10, 3, 10, 0}, // max_fee equals the basefee: no room
		{4, 3, 5, 0},   // max_fee below the basefee: 0, not a wrapped difference
		{0, 1, 1, 0},
		{^uint64(0), ^uint64(0), 0, ^uint64(0)},
		{7, 0, 1, 0}, // no tip offered
	}
	for _, tt := range tests {
		if got := EffectiveTip(Prices{MaxFee: tt.maxFee, Tip: tt.tip}, tt.basefee); got != tt.want {
			t.Errorf("EffectiveTip(max %d, tip %d, basefee %d) = %d, want %d", tt.maxFee, tt.tip, tt.basefee, got, tt.want)
		}
	}
}
