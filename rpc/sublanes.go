package rpc

import (
	"math/big"

	"github.com/cowboy-chain/cowboy/chain/timers"
	"github.com/cowboy-chain/cowboy/chain/types"
)

// Subscriptions to what a block does besides its transactions: the
// Deliver Timers and Resolve Jobs steps of the state transition (v2 "The
// State Transition Function"), whose receipts are not transaction
// receipts, so newHeads and logs do not carry them.
const (
	// SubTimers: each timer run of a new block, as cowboy_getTimerReceipts
	// shows it; second param {"owner": address} keeps one actor's.
	SubTimers = "timers"
	// SubJobResults: each job result delivered to its actor in a new block
	// (the continuation); second param {"actor": address} keeps one
	// actor's.
	SubJobResults = "jobResults"
)

// JobResultJSON is one job result delivered to its actor: the
// continuation's receipt.
type JobResultJSON struct {
	JobID       Quantity      `json:"jobId"`
	BlockNumber Quantity      `json:"blockNumber"`
	BlockHash   Hash          `json:"blockHash"`
	Actor       Address       `json:"actor"`
	Method      string        `json:"method"`
	Status      Quantity      `json:"status"`
	Error       string        `json:"error,omitempty"`
	CyclesUsed  Quantity      `json:"cyclesUsed"`
	CellsUsed   Quantity      `json:"cellsUsed"`
	Fee         BigQuantity   `json:"fee"`
	Events      []EventJSON   `json:"events"`
	Messages    []MessageJSON `json:"messages"`
}

// NewJobResultJSON renders one continuation of the block at height/hash.
func NewJobResultJSON(height uint64, hash types.Hash, job uint64, actor types.Address, method string, status uint64,
	errText string, cycles, cells uint64, fee *big.Int, events []types.Event, msgs []types.MessageResult) JobResultJSON {
	if fee == nil {
		fee = new(big.Int)
	}
	return JobResultJSON{JobID: Quantity(job), BlockNumber: Quantity(height), BlockHash: Hash(hash), Actor: Address(actor),
		Method: method, Status: Quantity(status), Error: errText, CyclesUsed: Quantity(cycles), CellsUsed: Quantity(cells),
		Fee: *NewBigQuantity(fee), Events: eventsJSON(events), Messages: messagesJSON(msgs)}
}

// laneFilter reads the optional {"owner"} or {"actor"} of a timers or
// jobResults subscription.
func laneFilter(p *params, sub *subscription) *Error {
	if !p.has(1) {
		return nil
	}
	var f struct {
		Owner *Address `json:"owner,omitempty"`
		Actor *Address `json:"actor,omitempty"`
	}
	if err := p.object(1, "filter", &f); err != nil {
		return err
	}
	a := f.Actor
	if sub.kind == SubTimers {
		if f.Actor != nil {
			return invalidParams("invalid params: a timers filter is {\"owner\": address}")
		}
		a = f.Owner
	} else if f.Owner != nil {
		return invalidParams("invalid params: a jobResults filter is {\"actor\": address}")
	}
	if a != nil {
		addr := types.Address(*a)
		sub.filter.Address = &addr
	}
	return nil
}

// PublishLanes announces the timer runs and job results of a block that
// joined the chain, after PublishBlock. Like it, it never blocks: a
// subscriber whose queue is full is dropped.
func (h *Hub) PublishLanes(height uint64, runs []*timers.Receipt, jobs []JobResultJSON) {
	if len(runs) == 0 && len(jobs) == 0 {
		return
	}
	type out struct {
		s   *subscription
		msg []byte
	}
	var sends []out
	h.mu.Lock()
	for _, s := range h.subs {
		if !s.active.Load() {
			continue
		}
		switch s.kind {
		case SubTimers:
			for _, r := range runs {
				if s.filter.Address == nil || *s.filter.Address == r.Owner {
					j := newTimerReceiptJSON(r)
					sends = append(sends, out{s, encodeNotification(s.id, &j)})
				}
			}
		case SubJobResults:
			for i := range jobs {
				if s.filter.Address == nil || Address(*s.filter.Address) == jobs[i].Actor {
					sends = append(sends, out{s, encodeNotification(s.id, &jobs[i])})
				}
			}
		}
	}
	h.mu.Unlock()
	for _, o := range sends {
		o.s.conn.send(o.msg)
	}
}
