package timers

import (
	"encoding/binary"
	"fmt"

	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/statekey"
	"github.com/cowboy-chain/cowboy/chain/types"
)

// Tier says where a pending timer sits (docs/timers.md).
type Tier uint8

// Tiers of the calendar queue, plus the backlog of due timers that rolled
// over.
const (
	TierDue      Tier = 0 // due: in the backlog of rolled-over timers
	TierRing     Tier = 1 // Tier 1: a ring slot
	TierEpoch    Tier = 2 // Tier 2: an epoch bucket
	TierOverflow Tier = 3 // Tier 3: the overflow set
)

// String names the tier as the CLI prints it.
func (t Tier) String() string {
	switch t {
	case TierDue:
		return "due"
	case TierRing:
		return "ring"
	case TierEpoch:
		return "epoch"
	case TierOverflow:
		return "overflow"
	}
	return "unknown"
}

// Deferral reasons, as recorded in a timer's history.
const (
	ReasonBudget = "budget" // the timer lane budget (or the block's cells) ran out
	ReasonFunds  = "funds"  // the owner could not pay the bid's maximum charge
	ReasonBid    = "bid"    // the bid's max fee is below the basefee
	ReasonScan   = "scan"   // beyond the block's MaxDueScan candidates (not recorded)
)

// Deferral is one block in which a due timer did not run.
type Deferral struct {
	_      struct{} `cbor:",toarray"`
	Height uint64
	Reason string
}

// Timer is the stored record of a pending timer (kind 0x04, namespace 0,
// slot = big-endian id). CBOR array, fields in this order.
type Timer struct {
	_        struct{} `cbor:",toarray"`
	ID       uint64
	Owner    types.Address  // the actor that scheduled it and pays for it
	Handler  string         // method called with Data as its one argument
	Data     []byte         // canonical CBOR of the argument
	Due      uint64         // height it is (next) due at
	Interval uint64         // blocks between runs; 0 for a one-shot timer
	GBA      *types.Address // Gas Bidding Agent; nil: the network default bid
	Deposit  uint64         // base units held in escrow, refunded at the end
	Created  uint64         // height it was scheduled at
	Tier     Tier
	// Deferrals counts every block the timer was due and did not run;
	// FundsDeferrals the consecutive ones for lack of funds or a bid below
	// the basefee (MaxFundsDeferrals of them drop it); History keeps the
	// last DeferralHistory.
	Deferrals      uint64
	FundsDeferrals uint64
	History        []Deferral
	Runs           uint64 // times it has run (intervals)
}

func idSlot(id uint64) (s [32]byte) {
	binary.BigEndian.PutUint64(s[24:], id)
	return s
}

// RecordKey is where timer id lives in the state.
func RecordKey(id uint64) state.Key {
	return statekey.Make(statekey.KindTimer, types.Address{}, nsRecord, idSlot(id))
}

// Namespaces of kind 0x04 (docs/state-layout.md).
const (
	nsRecord  byte = 0 // timer records, slot = id
	nsMeta    byte = 1 // the queue's meta record
	nsHeader  byte = 2 // list headers, slot = list id
	nsPage    byte = 3 // list pages, slot = list id + page number
	nsAim     byte = 4 // timers ever aimed at a height, slot = height
	nsByOwner byte = 5 // an owner's pending ids, address = owner
)

func loadTimer(st *state.StateDB, id uint64) (*Timer, error) {
	raw := st.Get(RecordKey(id))
	if raw == nil {
		return nil, st.Err()
	}
	t := new(Timer)
	if err := types.Unmarshal(raw, t); err != nil {
		return nil, fmt.Errorf("timer %d record: %w", id, err)
	}
	return t, nil
}

func saveTimer(st *state.StateDB, t *Timer) error {
	b, err := types.Marshal(t)
	if err != nil {
		return fmt.Errorf("encode timer %d: %w", t.ID, err)
	}
	st.Set(RecordKey(t.ID), b)
	return nil
}

// meta is the queue's chain-wide record: the next id, the number of
// pending timers and the dynamic timer basefee.
type meta struct {
	_       struct{} `cbor:",toarray"`
	NextID  uint64
	Pending uint64
	Basefee uint64
}

var metaKey = statekey.Make(statekey.KindTimer, types.Address{}, nsMeta, [32]byte{})

func loadMeta(st *state.StateDB) (*meta, error) {
	m := &meta{NextID: 1, Basefee: TimerBasefeeMin}
	raw := st.Get(metaKey)
	if raw == nil {
		return m, st.Err()
	}
	if err := types.Unmarshal(raw, m); err != nil {
		return nil, fmt.Errorf("timer queue meta: %w", err)
	}
	return m, nil
}

func saveMeta(st *state.StateDB, m *meta) error {
	b, err := types.Marshal(m)
	if err != nil {
		return fmt.Errorf("encode timer meta: %w", err)
	}
	st.Set(metaKey, b)
	return nil
}

func aimKey(h uint64) state.Key {
	return statekey.Make(statekey.KindTimer, types.Address{}, nsAim, idSlot(h))
}

func ownerKey(a types.Address) state.Key {
	return statekey.Make(statekey.KindTimer, a, nsByOwner, [32]byte{})
}

// ids are stored as CBOR arrays of unsigned integers.
func encodeIDs(ids []uint64) []byte {
	b := types.AppendArrayHeader(make([]byte, 0, 1+9*len(ids)), len(ids))
	for _, id := range ids {
		b = types.AppendUint(b, id)
	}
	return b
}

func decodeIDs(raw []byte) ([]uint64, error) {
	r := types.NewCBORReader(raw)
	n, err := r.Array()
	if err != nil {
		return nil, err
	}
	if n > len(raw) {
		return nil, fmt.Errorf("id list claims %d items in %d bytes", n, len(raw))
	}
	ids := make([]uint64, n)
	for i := range ids {
		if ids[i], err = r.Uint(); err != nil {
			return nil, err
		}
	}
	return ids, r.End()
}

func getUint(st *state.StateDB, k state.Key) uint64 {
	raw := st.Get(k)
	if len(raw) == 0 || len(raw) > 8 {
		return 0
	}
	var b [8]byte
	copy(b[8-len(raw):], raw)
	return binary.BigEndian.Uint64(b[:])
}

func setUint(st *state.StateDB, k state.Key, v uint64) {
	if v == 0 {
		st.Set(k, nil)
		return
	}
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], v)
	i := 0
	for i < 7 && b[i] == 0 {
		i++
	}
	st.Set(k, append([]byte(nil), b[i:]...))
}
