package rpc

import (
	"context"
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/timers"
	"github.com/cowboy-chain/cowboy/chain/types"
)

// TestWSLaneSubscriptions: timer runs and job results reach the
// subscriptions whose filter they match, in block order, and bad filters
// are refused.
func TestWSLaneSubscriptions(t *testing.T) {
	f, hub, srv := wsFixture(t, Options{})
	ctx := context.Background()
	w, err := DialWS(ctx, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	allTimers := mustSub(t, w, SubTimers)
	bobTimers := mustSub(t, w, SubTimers, map[string]any{"owner": Address(f.bob)})
	aliceJobs := mustSub(t, w, SubJobResults, map[string]any{"actor": Address(f.alice)})
	for !allActive(hub, 3) {
		runtimeGosched()
	}
	run := func(id uint64, owner types.Address) *timers.Receipt {
		return &timers.Receipt{TimerID: id, Height: 5, Owner: owner, Handler: "beat", Status: types.ReceiptSuccess,
			Fee: big.NewInt(3), Burned: big.NewInt(2), Tip: big.NewInt(1), GBAFee: new(big.Int)}
	}
	job := func(id uint64, actor types.Address) JobResultJSON {
		return NewJobResultJSON(5, types.Hash{5}, id, actor, "on_result", types.ReceiptSuccess, "", 10, 2, big.NewInt(7), nil, nil)
	}
	hub.PublishLanes(5, []*timers.Receipt{run(1, f.bob), run(2, f.alice)}, []JobResultJSON{job(7, f.alice), job(8, f.bob)})
	hub.PublishLanes(6, []*timers.Receipt{run(3, f.bob)}, []JobResultJSON{job(9, f.alice)})
	for _, tt := range []struct {
		s    *Subscription
		want []uint64
	}{{allTimers, []uint64{1, 2, 3}}, {bobTimers, []uint64{1, 3}}} {
		for _, id := range tt.want {
			var r TimerReceiptJSON
			next(t, tt.s, &r)
			if uint64(r.TimerID) != id || r.Handler != "beat" || r.Fee.Int().Int64() != 3 {
				t.Fatalf("subscription %s: timer run %+v, want timer %d", tt.s.ID, r, id)
			}
		}
	}
	for _, id := range []uint64{7, 9} {
		var j JobResultJSON
		next(t, aliceJobs, &j)
		if uint64(j.JobID) != id || j.Actor != Address(f.alice) || j.Method != "on_result" || j.Fee.Int().Int64() != 7 {
			t.Fatalf("job result %+v, want job %d", j, id)
		}
	}
	for _, tc := range []struct {
		args []any
		want string
	}{
		{[]any{SubTimers, map[string]any{"actor": Address(f.bob)}}, `a timers filter is {"owner": address}`},
		{[]any{SubJobResults, map[string]any{"owner": Address(f.bob)}}, `a jobResults filter is {"actor": address}`},
		{[]any{SubTimers, map[string]any{"owner": "0x12"}}, "invalid address"},
		{[]any{SubJobResults, map[string]any{"height": 1}}, "unknown field"},
	} {
		_, err := w.Subscribe(ctx, tc.args[0].(string), tc.args[1:]...)
		var rerr *Error
		if !errors.As(err, &rerr) || rerr.Code != CodeInvalidParams || !strings.Contains(rerr.Message, tc.want) {
			t.Errorf("subscribe %v: %v, want -32602 %q", tc.args, err, tc.want)
		}
	}
}
