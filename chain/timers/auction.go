package timers

import (
	"cmp"
	"math/big"
	"slices"
)

// Candidate is a due timer with the bid its GBA made for this block.
type Candidate struct {
	Timer *Timer
	Bid   Bid
	// Tip is the effective tip per cycle, EffectiveTip(Bid, basefee);
	// Payable is false when the bid's max fees are below the basefees.
	Tip     uint64
	Payable bool
	// GBACycles, GBACells and GBAFee are what asking the GBA for Bid
	// used and cost the owner in this block (zero without a call).
	GBACycles, GBACells uint64
	GBAFee              *big.Int
}

// NewCandidate prices t's bid against the block's basefees.
func NewCandidate(t *Timer, b Bid, basefeeCycle, basefeeCell uint64) Candidate {
	tip, ok := EffectiveTip(b, basefeeCycle)
	_, okCell := CellTip(b, basefeeCell)
	return Candidate{Timer: t, Bid: b, Tip: tip, Payable: ok && okCell}
}

// priority orders candidates: the effective tip plus the bounded
// anti-starvation boost of its deferrals.
func (c *Candidate) priority() uint64 {
	if !c.Payable {
		return 0
	}
	b := Boost(c.Timer.Deferrals)
	if c.Tip > ^uint64(0)-b {
		return ^uint64(0)
	}
	return c.Tip + b
}

// Order sorts candidates for execution (scheduler-dos-protection,
// "Economic Prioritization"): payable before unpayable, then by effective
// tip plus boost from highest down, then by timer id (oldest first), a
// total deterministic order.
func Order(cs []Candidate) {
	slices.SortFunc(cs, func(a, b Candidate) int {
		if a.Payable != b.Payable {
			if a.Payable {
				return -1
			}
			return 1
		}
		if c := cmp.Compare(b.priority(), a.priority()); c != 0 {
			return c
		}
		return cmp.Compare(a.Timer.ID, b.Timer.ID)
	})
}

// Run executes one candidate with the given cycle limit; it reports the
// cycles the lane must count (intrinsic and handler) and the outcome.
type Run func(c *Candidate, cycleLimit uint64) (cyclesUsed uint64, o Outcome)

// Fill spends the timer lane budget on ordered candidates (Order first):
// each one runs while the lane has at least TimerCallCycles left, with
// that as its limit; an unpayable bid is deferred with ReasonBid; once the
// budget is below TimerCallCycles every remaining timer rolls over with
// ReasonBudget. It returns every candidate's outcome, in order, and the
// cycles used.
func Fill(cs []Candidate, budget uint64, run Run) ([]Outcome, uint64) {
	out := make([]Outcome, 0, len(cs))
	var used uint64
	for i := range cs {
		c := &cs[i]
		switch {
		case !c.Payable:
			out = append(out, Outcome{Timer: c.Timer, Reason: ReasonBid})
		case budget-used < TimerCallCycles:
			out = append(out, Outcome{Timer: c.Timer, Reason: ReasonBudget})
		default:
			n, o := run(c, TimerCallCycles)
			used += min(n, TimerCallCycles)
			out = append(out, o)
		}
	}
	return out, used
}
