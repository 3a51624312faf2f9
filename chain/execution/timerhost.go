package execution

import (
	"errors"
	"math/big"

	"github.com/cowboy-chain/cowboy/chain/timers"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/pvm"
)

// SetTimer enqueues the running actor's timer in the calendar queue of
// chain/timers (§3.3); a refusal (past height, cap, unpaid charges) is a
// ValueError in the handler and, like everything a handler does, the
// timer is reverted if the handler fails.
func (h *handlerHost) SetTimer(r pvm.TimerRequest) (uint64, error) {
	req := timers.Request{Owner: h.env.to, Handler: r.Handler, Data: r.Data, Due: r.Height, Interval: r.Every}
	if r.GBA != nil {
		g := types.Address(*r.GBA)
		req.GBA = &g
	}
	t, _, err := timers.New(h.rt.st).Schedule(req, h.rt.bc.Height)
	if err != nil {
		return 0, timerHostErr(err)
	}
	return t.ID, nil
}

// CancelTimer cancels one of the running actor's timers and refunds its
// deposit to the actor (§3.3).
func (h *handlerHost) CancelTimer(id uint64) (*big.Int, error) {
	refund, err := timers.New(h.rt.st).Cancel(h.env.to, id, h.rt.bc.Height)
	if err != nil {
		return nil, timerHostErr(err)
	}
	return refund, nil
}

func timerHostErr(err error) error {
	if errors.Is(err, timers.ErrRefused) {
		return &pvm.HostError{Type: "ValueError", Msg: err.Error()}
	}
	return err
}
