package timers

import (
	"errors"
	"fmt"
	"math/big"
	"slices"

	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/types"
)

// Queue is the calendar queue over one block's state view. It holds no
// state of its own: everything is read from and written to st, so a
// reverted handler reverts its timers too.
type Queue struct {
	st *state.StateDB
}

// New returns the queue stored in st.
func New(st *state.StateDB) *Queue { return &Queue{st: st} }

// ErrRefused is wrapped by every refusal of Schedule and Cancel: the
// request is bad or cannot be paid, and nothing changed. Actor code sees
// it as a ValueError.
var ErrRefused = errors.New("timer refused")

func refuse(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrRefused, fmt.Sprintf(format, a...))
}

// Request is a set_timer or set_interval call.
type Request struct {
	Owner    types.Address
	Handler  string
	Data     []byte // canonical CBOR
	Due      uint64 // first height to run at
	Interval uint64 // 0: one-shot
	GBA      *types.Address
}

// Charges is what scheduling cost the owner, in base units: the deposit
// (held in escrow, refundable) and the burned surcharge and timer basefee.
type Charges struct {
	Deposit   *big.Int
	Surcharge *big.Int
	Basefee   *big.Int
}

// Total is everything taken from the owner's balance.
func (c Charges) Total() *big.Int {
	t := new(big.Int).Add(c.Deposit, c.Surcharge)
	return t.Add(t, c.Basefee)
}

// Quote is what scheduling req at block height would cost, and the
// reason it would be refused if it would be (without the balance check).
func (q *Queue) Quote(req Request, height uint64) (Charges, error) {
	if err := checkRequest(req, height); err != nil {
		return Charges{}, err
	}
	ids, err := q.ByOwner(req.Owner)
	if err != nil {
		return Charges{}, err
	}
	if len(ids) >= MaxPendingPerActor {
		return Charges{}, refuse("actor %s already has %d pending timers, the per-actor cap", req.Owner, len(ids))
	}
	m, err := loadMeta(q.st)
	if err != nil {
		return Charges{}, err
	}
	k := getUint(q.st, aimKey(req.Due)) + 1
	return Charges{Deposit: Deposit(uint64(len(ids))), Surcharge: Surcharge(k), Basefee: new(big.Int).SetUint64(m.Basefee)}, nil
}

func checkRequest(req Request, height uint64) error {
	switch {
	case req.Handler == "" || len(req.Handler) > MaxHandlerLen:
		return refuse("handler must be a method name of 1 to %d characters", MaxHandlerLen)
	case req.Handler[0] == '_':
		return refuse("handler %q is private (starts with _)", req.Handler)
	case len(req.Data) > MaxDataBytes:
		return refuse("data is %d bytes of CBOR; at most %d", len(req.Data), MaxDataBytes)
	case req.Due <= height:
		return refuse("height %d is not in the future (this block is %d)", req.Due, height)
	}
	return nil
}

// Schedule enqueues a timer at block height, taking its charges from the
// owner's balance (the deposit into escrow, the surcharge and the timer
// basefee burned). On error nothing changed.
func (q *Queue) Schedule(req Request, height uint64) (*Timer, Charges, error) {
	c, err := q.Quote(req, height)
	if err != nil {
		return nil, c, err
	}
	total := c.Total()
	if !q.st.HasBalance(req.Owner, total) {
		return nil, c, refuse("actor %s has %s base units; this timer needs %s (deposit %s, same-height surcharge %s, timer basefee %s)",
			req.Owner, q.st.Balance(req.Owner), total, c.Deposit, c.Surcharge, c.Basefee)
	}
	m, err := loadMeta(q.st)
	if err != nil {
		return nil, c, err
	}
	ids, err := q.ByOwner(req.Owner)
	if err != nil {
		return nil, c, err
	}
	if err := q.st.SubBalance(req.Owner, total); err != nil {
		return nil, c, err
	}
	q.st.AddBalance(EscrowAddress, c.Deposit)
	q.st.Burn(new(big.Int).Add(c.Surcharge, c.Basefee))

	t := &Timer{ID: m.NextID, Owner: req.Owner, Handler: req.Handler, Data: req.Data, Due: req.Due,
		Interval: req.Interval, GBA: req.GBA, Deposit: c.Deposit.Uint64(), Created: height}
	m.NextID++
	m.Pending++
	setUint(q.st, aimKey(req.Due), getUint(q.st, aimKey(req.Due))+1)
	if err := q.setOwner(req.Owner, append(ids, t.ID)); err != nil {
		return nil, c, err
	}
	if err := q.place(t, height); err != nil {
		return nil, c, err
	}
	if err := saveMeta(q.st, m); err != nil {
		return nil, c, err
	}
	return t, c, nil
}

// place puts t in the tier its due height belongs to at block height and
// saves its record.
func (q *Queue) place(t *Timer, height uint64) error {
	e, now := t.Due/EpochBlocks, height/EpochBlocks
	var l list
	switch {
	case e <= now+1:
		t.Tier, l = TierRing, list{listRing, t.Due % RingSlots}
	case e <= now+1+EpochBucketsAhead:
		t.Tier, l = TierEpoch, list{listBucket, e}
	default:
		t.Tier, l = TierOverflow, list{listOverflow, e}
	}
	if err := l.push(q.st, t.ID); err != nil {
		return err
	}
	return saveTimer(q.st, t)
}

// Get returns timer id, or nil if it is not pending.
func (q *Queue) Get(id uint64) (*Timer, error) { return loadTimer(q.st, id) }

// ByOwner lists the ids of owner's pending timers, ascending.
func (q *Queue) ByOwner(owner types.Address) ([]uint64, error) {
	raw := q.st.Get(ownerKey(owner))
	if raw == nil {
		return nil, q.st.Err()
	}
	ids, err := decodeIDs(raw)
	if err != nil {
		return nil, fmt.Errorf("timers of %s: %w", owner, err)
	}
	return ids, nil
}

func (q *Queue) setOwner(owner types.Address, ids []uint64) error {
	if len(ids) == 0 {
		q.st.Set(ownerKey(owner), nil)
		return nil
	}
	q.st.Set(ownerKey(owner), encodeIDs(ids))
	return nil
}

// Pending is the number of pending timers (the queue depth).
func (q *Queue) Pending() (uint64, error) {
	m, err := loadMeta(q.st)
	if err != nil {
		return 0, err
	}
	return m.Pending, nil
}

// Basefee is the current dynamic timer basefee, base units per timer.
func (q *Queue) Basefee() (uint64, error) {
	m, err := loadMeta(q.st)
	if err != nil {
		return 0, err
	}
	return m.Basefee, nil
}

// Cancel removes owner's timer id and refunds its deposit (§3.3 "Returns
// the deposit if successful"); the surcharge stays burned. An id that is
// not pending (already run or cancelled) returns zero and changes
// nothing, so handlers can cancel idempotently; someone else's timer is
// refused.
func (q *Queue) Cancel(owner types.Address, id, height uint64) (*big.Int, error) {
	t, err := loadTimer(q.st, id)
	if err != nil || t == nil {
		return new(big.Int), err
	}
	if t.Owner != owner {
		return nil, refuse("timer %d belongs to %s, not %s", id, t.Owner, owner)
	}
	return q.finish(t, height)
}

// finish removes t from the state at block height and refunds its
// deposit; its list entry is dropped lazily when the list is next read,
// its receipts ReceiptRetention blocks later.
func (q *Queue) finish(t *Timer, height uint64) (*big.Int, error) {
	if err := expireReceipts(q.st, t.ID, height); err != nil {
		return nil, err
	}
	m, err := loadMeta(q.st)
	if err != nil {
		return nil, err
	}
	ids, err := q.ByOwner(t.Owner)
	if err != nil {
		return nil, err
	}
	if i, ok := slices.BinarySearch(ids, t.ID); ok {
		ids = slices.Delete(ids, i, i+1)
	}
	if err := q.setOwner(t.Owner, ids); err != nil {
		return nil, err
	}
	refund := new(big.Int).SetUint64(t.Deposit)
	if err := q.st.SubBalance(EscrowAddress, refund); err != nil {
		return nil, fmt.Errorf("refund timer %d deposit: %w", t.ID, err)
	}
	q.st.AddBalance(t.Owner, refund)
	q.st.Set(RecordKey(t.ID), nil)
	m.Pending--
	return refund, saveMeta(q.st, m)
}

// Due starts the delivery of block height: this height's ring slot joins
// the tail of the backlog, and up to MaxDueScan timers are taken from the
// backlog's head (oldest first) as this block's candidates. Every
// candidate must be handed back to Settle.
func (q *Queue) Due(height uint64) ([]*Timer, error) {
	slot := list{listRing, height % RingSlots}
	n, err := slot.count(q.st)
	if err != nil {
		return nil, err
	}
	ids, err := slot.pop(q.st, n)
	if err != nil {
		return nil, err
	}
	backlog := list{listBacklog, 0}
	for _, id := range ids {
		t, err := loadTimer(q.st, id)
		if err != nil {
			return nil, err
		}
		switch {
		case t == nil: // cancelled
		case t.Due <= height:
			t.Tier = TierDue
			if err := saveTimer(q.st, t); err != nil {
				return nil, err
			}
			if err := backlog.push(q.st, id); err != nil {
				return nil, err
			}
		default: // the next lap of this slot: due in the next epoch
			if err := slot.push(q.st, id); err != nil {
				return nil, err
			}
		}
	}
	q.st.Set(aimKey(height), nil)

	var out []*Timer
	for len(out) < MaxDueScan {
		ids, err := backlog.pop(q.st, uint64(MaxDueScan-len(out)))
		if err != nil {
			return nil, err
		}
		if len(ids) == 0 {
			break
		}
		for _, id := range ids {
			t, err := loadTimer(q.st, id)
			if err != nil {
				return nil, err
			}
			if t != nil {
				out = append(out, t)
			}
		}
	}
	return out, nil
}

// Outcome is what became of a candidate in a block.
type Outcome struct {
	Timer  *Timer
	Ran    bool   // its handler ran (successfully or not): it was charged
	Reason string // when it did not run: a Reason* deferral
	Drop   bool   // drop it now, refunding its deposit (its actor is gone)
}

// Settle ends the delivery of block height. A timer that ran is finished
// (its deposit refunded) or, if it is an interval still pending, re-armed
// at its next phase after height. A deferred timer goes back to the head
// of the backlog in its order, with the deferral recorded; after
// MaxFundsDeferrals consecutive deferrals for funds or bid it is dropped
// and its deposit refunded. It returns the ids dropped for funds.
func (q *Queue) Settle(height uint64, outcomes []Outcome) (dropped []uint64, err error) {
	var back []uint64
	for _, o := range outcomes {
		// The handler may have cancelled its own timer: the record decides.
		t, err := loadTimer(q.st, o.Timer.ID)
		if err != nil {
			return nil, err
		}
		if t == nil {
			continue
		}
		switch {
		case o.Drop:
			if _, err := q.finish(t, height); err != nil {
				return nil, err
			}
		case o.Ran:
			t.Runs++
			t.FundsDeferrals = 0
			if t.Interval == 0 {
				if _, err := q.finish(t, height); err != nil {
					return nil, err
				}
				continue
			}
			// Phase-aligned re-arm: the first due + k × interval after height.
			t.Due += t.Interval * ((height-t.Due)/t.Interval + 1)
			setUint(q.st, aimKey(t.Due), getUint(q.st, aimKey(t.Due))+1)
			if err := q.place(t, height); err != nil {
				return nil, err
			}
		default:
			t.Deferrals++
			if o.Reason == ReasonFunds || o.Reason == ReasonBid {
				t.FundsDeferrals++
			}
			if o.Reason != ReasonScan {
				t.History = append(t.History, Deferral{Height: height, Reason: o.Reason})
				if len(t.History) > DeferralHistory {
					t.History = slices.Clone(t.History[len(t.History)-DeferralHistory:])
				}
			}
			if t.FundsDeferrals >= MaxFundsDeferrals {
				if _, err := q.finish(t, height); err != nil {
					return nil, err
				}
				dropped = append(dropped, t.ID)
				continue
			}
			t.Tier = TierDue
			if err := saveTimer(q.st, t); err != nil {
				return nil, err
			}
			back = append(back, t.ID)
		}
	}
	return dropped, list{listBacklog, 0}.pushFront(q.st, back)
}

// Maintain is the end-of-block queue maintenance at block height (epoch
// E): it moves ⌈remaining / blocks left in E⌉ ids of bucket E+1 into the
// ring and of overflow epoch E+257 into its bucket, so both are empty when
// E ends and no block does more than its share; then it updates the timer
// basefee from the queue depth. It returns how many ids it moved.
func (q *Queue) Maintain(height uint64) (moved int, err error) {
	if err := pruneReceipts(q.st, height); err != nil {
		return 0, err
	}
	e := height / EpochBlocks
	left := EpochBlocks - height%EpochBlocks
	for _, l := range []list{{listBucket, e + 1}, {listOverflow, e + 1 + EpochBucketsAhead}} {
		n, err := l.count(q.st)
		if err != nil || n == 0 {
			if err != nil {
				return moved, err
			}
			continue
		}
		ids, err := l.pop(q.st, (n+left-1)/left)
		if err != nil {
			return moved, err
		}
		for _, id := range ids {
			t, err := loadTimer(q.st, id)
			if err != nil {
				return moved, err
			}
			if t == nil {
				continue // cancelled
			}
			if err := q.place(t, height); err != nil {
				return moved, err
			}
			moved++
		}
	}
	m, err := loadMeta(q.st)
	if err != nil {
		return moved, err
	}
	if next := NextTimerBasefee(m.Basefee, m.Pending); next != m.Basefee {
		m.Basefee = next
		return moved, saveMeta(q.st, m)
	}
	return moved, nil
}

// HasDue reports whether block height may have timers to deliver: the
// backlog is not empty or this height's ring slot holds ids (which may
// also be next epoch's). The block reserves the timer lane only then.
func (q *Queue) HasDue(height uint64) (bool, error) {
	n, err := list{listBacklog, 0}.count(q.st)
	if err != nil || n > 0 {
		return n > 0, err
	}
	n, err = list{listRing, height % RingSlots}.count(q.st)
	return n > 0, err
}
