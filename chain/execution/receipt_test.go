package execution

import (
	"math/big"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/system/runner"
	"github.com/cowboy-chain/cowboy/chain/types"
)

// TestContinuationReceipt pins the receipt a continuation is stored as:
// keyed by runner.ContinuationID, fees never nil (zero when the
// continuation could not run), and, when it sent no message, one failed
// delivery from the result verifier to the actor carrying its error.
func TestContinuationReceipt(t *testing.T) {
	actor := types.Address{7}
	ran := types.MessageResult{ID: runner.ContinuationID(5), From: runner.VerifierAddress, To: actor, Method: "done", Depth: 1, Status: types.ReceiptSuccess}
	tests := []struct {
		name       string
		c          Continuation
		wantFee    int64
		wantBurned int64
		wantTip    int64
		wantMsg    types.MessageResult
	}{
		{"could not run", Continuation{JobID: 5, Actor: actor, Method: "done", Status: types.ReceiptFailed, Error: "actor gone"}, 0, 0, 0,
			types.MessageResult{ID: runner.ContinuationID(5), From: runner.VerifierAddress, To: actor, Method: "done", Depth: 1, Status: types.ReceiptFailed, Error: "actor gone"}},
		{"ran", Continuation{JobID: 5, Actor: actor, Method: "done", Status: types.ReceiptSuccess, Fee: big.NewInt(30), Burned: big.NewInt(20), Tip: big.NewInt(10),
			Messages: []types.MessageResult{ran}}, 30, 20, 10, ran},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.c.Receipt()
			if r.TxHash != runner.ContinuationID(5) || r.Status != tt.c.Status || r.Error != tt.c.Error {
				t.Fatalf("receipt %x status %d error %q", r.TxHash, r.Status, r.Error)
			}
			if r.Fee == nil || r.Burned == nil || r.Tip == nil || r.Fee.Int64() != tt.wantFee || r.Burned.Int64() != tt.wantBurned || r.Tip.Int64() != tt.wantTip {
				t.Fatalf("fee %v burned %v tip %v, want %d %d %d", r.Fee, r.Burned, r.Tip, tt.wantFee, tt.wantBurned, tt.wantTip)
			}
			if len(r.Messages) != 1 || r.Messages[0].ID != tt.wantMsg.ID || r.Messages[0].From != tt.wantMsg.From || r.Messages[0].To != tt.wantMsg.To ||
				r.Messages[0].Method != tt.wantMsg.Method || r.Messages[0].Status != tt.wantMsg.Status || r.Messages[0].Error != tt.wantMsg.Error || r.Messages[0].Depth != 1 {
				t.Fatalf("messages %+v, want [%+v]", r.Messages, tt.wantMsg)
			}
		})
	}
}
