package rpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"

	"github.com/cowboy-chain/cowboy/chain/timers"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/pvm/cbor"
)

// Timers is what a node offers for the timer methods (cowboy_getTimers,
// cowboy_getTimer, cowboy_getTimerReceipts). Optional, like Actors.
type Timers interface {
	// Timer returns pending timer id at the latest block, or nil.
	Timer(id uint64) (*timers.Timer, error)
	// TimersOf returns owner's pending timers, by id.
	TimersOf(owner types.Address) ([]*timers.Timer, error)
	// TimerReceipts returns the kept receipts of timer id, oldest first.
	TimerReceipts(id uint64) ([]timers.Receipt, error)
	// TimerProof proves timer id's record (present or absent) at a
	// retained height.
	TimerProof(id, height uint64) (*StateProof, error)
}

// TimerJSON is a pending timer (docs/rpc.md "cowboy_getTimer").
type TimerJSON struct {
	ID        Quantity        `json:"id"`
	Owner     Address         `json:"owner"`
	Handler   string          `json:"handler"`
	Data      Bytes           `json:"data"`
	Value     json.RawMessage `json:"value,omitempty"` // data as JSON, when it decodes
	Due       Quantity        `json:"due"`
	Interval  Quantity        `json:"interval"`
	GBA       *Address        `json:"gba"`
	Deposit   BigQuantity     `json:"deposit"`
	Created   Quantity        `json:"created"`
	Tier      string          `json:"tier"`
	Deferrals Quantity        `json:"deferrals"`
	History   []DeferralJSON  `json:"history"`
	Runs      Quantity        `json:"runs"`
}

// DeferralJSON is one block in which a due timer did not run, and why.
type DeferralJSON struct {
	Height Quantity `json:"height"`
	Reason string   `json:"reason"`
}

// TimerReceiptJSON is one run of a timer.
type TimerReceiptJSON struct {
	TimerID     Quantity      `json:"timerId"`
	BlockNumber Quantity      `json:"blockNumber"`
	Owner       Address       `json:"owner"`
	Handler     string        `json:"handler"`
	Status      Quantity      `json:"status"`
	CyclesUsed  Quantity      `json:"cyclesUsed"`
	CellsUsed   Quantity      `json:"cellsUsed"`
	Fee         BigQuantity   `json:"fee"`
	Burned      BigQuantity   `json:"burned"`
	Tip         BigQuantity   `json:"tip"`
	TipPerCycle Quantity      `json:"tipPerCycle"`
	Error       string        `json:"error,omitempty"`
	Events      []EventJSON   `json:"events"`
	Messages    []MessageJSON `json:"messages"`
	// GBACycles and GBAFee: what the owner paid in that block for its
	// GBA's bid (burned, not in fee).
	GBACycles Quantity    `json:"gbaCycles"`
	GBAFee    BigQuantity `json:"gbaFee"`
	// Index is the run's place among the block's timer runs (0 first).
	Index Quantity `json:"index"`
}

// NewTimerJSON renders a timer.
func NewTimerJSON(t *timers.Timer) *TimerJSON {
	j := &TimerJSON{ID: Quantity(t.ID), Owner: Address(t.Owner), Handler: t.Handler, Data: Bytes(t.Data),
		Due: Quantity(t.Due), Interval: Quantity(t.Interval), Deposit: *NewBigQuantity(new(big.Int).SetUint64(t.Deposit)),
		Created: Quantity(t.Created), Tier: t.Tier.String(), Deferrals: Quantity(t.Deferrals), Runs: Quantity(t.Runs),
		History: []DeferralJSON{}}
	if t.GBA != nil {
		g := Address(*t.GBA)
		j.GBA = &g
	}
	if b, err := cbor.ToJSON(t.Data); err == nil {
		j.Value = b
	}
	for _, d := range t.History {
		j.History = append(j.History, DeferralJSON{Height: Quantity(d.Height), Reason: d.Reason})
	}
	return j
}

func newTimerReceiptJSON(r *timers.Receipt) TimerReceiptJSON {
	return TimerReceiptJSON{TimerID: Quantity(r.TimerID), BlockNumber: Quantity(r.Height), Owner: Address(r.Owner),
		Handler: r.Handler, Status: Quantity(r.Status), CyclesUsed: Quantity(r.CyclesUsed), CellsUsed: Quantity(r.CellsUsed),
		Fee: *NewBigQuantity(r.Fee), Burned: *NewBigQuantity(r.Burned), Tip: *NewBigQuantity(r.Tip), TipPerCycle: Quantity(r.TipPerCycle),
		Error: r.Error, Events: eventsJSON(r.Events), Messages: messagesJSON(r.Messages),
		GBACycles: Quantity(r.GBACycles), GBAFee: *NewBigQuantity(r.GBAFee), Index: Quantity(r.Index)}
}

func timersOf(b Backend, name string) (Timers, *Error) {
	t, ok := b.(Timers)
	if !ok {
		return nil, newError(CodeMethodNotFound, "method %s is not served by this node", name)
	}
	return t, nil
}

func (p *params) timerID(i int) (uint64, *Error) {
	var q Quantity
	if err := p.decode(i, "timer id", &q); err != nil {
		return 0, err
	}
	return uint64(q), nil
}

// cowboy_getTimers(owner) lists an actor's pending timers.
func getTimers(_ context.Context, b Backend, p *params) (any, *Error) {
	t, perr := timersOf(b, "cowboy_getTimers")
	if perr != nil {
		return nil, perr
	}
	owner, perr := p.address(0)
	if perr != nil {
		return nil, perr
	}
	ts, err := t.TimersOf(owner)
	if err != nil {
		return nil, internal(err)
	}
	out := make([]*TimerJSON, 0, len(ts))
	for _, tm := range ts {
		out = append(out, NewTimerJSON(tm))
	}
	return out, nil
}

// cowboy_getTimer(id) shows one pending timer, or null.
func getTimer(_ context.Context, b Backend, p *params) (any, *Error) {
	t, perr := timersOf(b, "cowboy_getTimer")
	if perr != nil {
		return nil, perr
	}
	id, perr := p.timerID(0)
	if perr != nil {
		return nil, perr
	}
	tm, err := t.Timer(id)
	if errors.Is(err, ErrNotFound) || (err == nil && tm == nil) {
		return nil, nil
	}
	if err != nil {
		return nil, internal(err)
	}
	return NewTimerJSON(tm), nil
}

// cowboy_getTimerReceipts(id) lists the kept receipts of a timer's runs.
func getTimerReceipts(_ context.Context, b Backend, p *params) (any, *Error) {
	t, perr := timersOf(b, "cowboy_getTimerReceipts")
	if perr != nil {
		return nil, perr
	}
	id, perr := p.timerID(0)
	if perr != nil {
		return nil, perr
	}
	rs, err := t.TimerReceipts(id)
	if err != nil {
		return nil, internal(err)
	}
	out := make([]TimerReceiptJSON, 0, len(rs))
	for i := range rs {
		out = append(out, newTimerReceiptJSON(&rs[i]))
	}
	return out, nil
}

// Timers lists owner's pending timers (cowboy_getTimers).
func (c *Client) Timers(ctx context.Context, owner types.Address) ([]TimerJSON, error) {
	var out []TimerJSON
	if err := c.Call(ctx, &out, "cowboy_getTimers", Address(owner)); err != nil {
		return nil, err
	}
	return out, nil
}

// Timer reads one pending timer (cowboy_getTimer); an error wrapping
// ErrNotFound when it is not pending.
func (c *Client) Timer(ctx context.Context, id uint64) (*TimerJSON, error) {
	var out *TimerJSON
	if err := c.Call(ctx, &out, "cowboy_getTimer", Quantity(id)); err != nil {
		return nil, err
	}
	if out == nil {
		return nil, fmt.Errorf("timer %d is not pending: %w", id, ErrNotFound)
	}
	return out, nil
}

// TimerReceipts lists the kept receipts of a timer (cowboy_getTimerReceipts).
func (c *Client) TimerReceipts(ctx context.Context, id uint64) ([]TimerReceiptJSON, error) {
	var out []TimerReceiptJSON
	if err := c.Call(ctx, &out, "cowboy_getTimerReceipts", Quantity(id)); err != nil {
		return nil, err
	}
	return out, nil
}

// cowboy_getTimerProof(id, height?) proves a timer's record against a
// block's state root, like cowboy_getProof proves accounts.
func getTimerProof(_ context.Context, b Backend, p *params) (any, *Error) {
	t, perr := timersOf(b, "cowboy_getTimerProof")
	if perr != nil {
		return nil, perr
	}
	id, perr := p.timerID(0)
	if perr != nil {
		return nil, perr
	}
	height := b.LatestHeight()
	if p.has(1) {
		var ref BlockRef
		if err := p.decode(1, "height", &ref); err != nil {
			return nil, err
		}
		switch ref {
		case LatestBlock:
		case EarliestBlock:
			height = 0
		default:
			height, _ = ref.Height()
		}
	}
	sp, err := t.TimerProof(id, height)
	if errors.Is(err, ErrNotFound) {
		return nil, newError(CodeNotFound, "%v", err)
	}
	if err != nil {
		return nil, internal(err)
	}
	sp.Value = append([]byte(nil), sp.Value...)
	out, err := NewProofJSON(types.Address{}, nil, &StateProof{Header: sp.Header, StoreKey: sp.StoreKey, Proof: sp.Proof})
	if err != nil {
		return nil, internal(err)
	}
	if sp.Value != nil {
		v := Bytes(sp.Value)
		out.Value = &v
	}
	q := Quantity(id)
	out.Timer = &q
	return out, nil
}

// TimerProof fetches a proof of timer id's record (cowboy_getTimerProof)
// at height, or the latest block when height is nil.
func (c *Client) TimerProof(ctx context.Context, id uint64, height *uint64) (*ProofJSON, error) {
	params := []any{Quantity(id)}
	if height != nil {
		params = append(params, Quantity(*height))
	}
	var out *ProofJSON
	if err := c.Call(ctx, &out, "cowboy_getTimerProof", params...); err != nil {
		return nil, err
	}
	if out == nil {
		return nil, ErrNotFound
	}
	return out, nil
}
