package timers

import (
	"errors"
	"fmt"
	"math/big"
	"slices"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/types"
	"pgregory.net/rapid"
)

// modelTimer is the model's whole idea of a timer: when it is due, and
// its period.
type modelTimer struct {
	owner         types.Address
	due, interval uint64
	deposit       uint64
}

// model is a plain sorted list: what should fire at a block is every
// pending timer whose due height has come, and nothing else.
type model struct {
	timers map[uint64]*modelTimer
}

func (m *model) due(h uint64) []uint64 {
	var ids []uint64
	for id, t := range m.timers {
		if t.due <= h {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}

// TestQueueAgainstSortedListModel drives random set / set_interval /
// cancel / advance / restart sequences through the queue and a plain
// model, and demands that both agree on which timers are due at every
// height (with random deferrals, so rolled-over timers are covered), on
// each owner's pending ids, and that the escrow holds exactly the pending
// deposits.
func TestQueueAgainstSortedListModel(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		mem := memStore{}
		st := state.New(mem)
		owners := []types.Address{addr(1), addr(2), addr(3)}
		for _, o := range owners {
			fund(st, o, cby(1000))
		}
		// Start anywhere in the first epochs, often near a boundary.
		h := rapid.Uint64Range(1, 3*EpochBlocks).Draw(rt, "start")
		q := New(st)
		m := &model{timers: map[uint64]*modelTimer{}}
		var known []uint64
		deferSeed := rapid.Uint64().Draw(rt, "deferSeed")

		advance := func(n int) {
			for range n {
				cands, err := q.Due(h)
				if err != nil {
					rt.Fatal(err)
				}
				var got []uint64
				for _, c := range cands {
					got = append(got, c.ID)
				}
				slices.Sort(got)
				if want := m.due(h); !slices.Equal(got, want) {
					rt.Fatalf("block %d: queue has due %v, model %v", h, got, want)
				}
				var outs []Outcome
				for _, c := range cands {
					// A pseudo-random third of the due timers roll over.
					if (c.ID*0x9e3779b97f4a7c15^h*0xbf58476d1ce4e5b9^deferSeed)%3 == 0 {
						outs = append(outs, Outcome{Timer: c, Reason: ReasonBudget})
						continue
					}
					outs = append(outs, Outcome{Timer: c, Ran: true})
					mt := m.timers[c.ID]
					if mt.interval == 0 {
						delete(m.timers, c.ID)
					} else {
						mt.due += mt.interval * ((h-mt.due)/mt.interval + 1)
					}
				}
				if _, err := q.Settle(h, outs); err != nil {
					rt.Fatal(err)
				}
				if _, err := q.Maintain(h); err != nil {
					rt.Fatal(err)
				}
				h++
			}
		}

		steps := rapid.IntRange(1, 40).Draw(rt, "steps")
		for i := range steps {
			switch rapid.IntRange(0, 5).Draw(rt, fmt.Sprint("op", i)) {
			case 0, 1: // set_timer / set_interval
				o := owners[rapid.IntRange(0, len(owners)-1).Draw(rt, "owner")]
				due := h + rapid.Uint64Range(1, 1500).Draw(rt, "ahead")
				var every uint64
				if rapid.Bool().Draw(rt, "interval") {
					every = rapid.Uint64Range(1, 300).Draw(rt, "every")
				}
				tm, _, err := q.Schedule(Request{Owner: o, Handler: "h", Due: due, Interval: every}, h)
				if err != nil {
					rt.Fatal(err)
				}
				m.timers[tm.ID] = &modelTimer{owner: o, due: due, interval: every, deposit: tm.Deposit}
				known = append(known, tm.ID)
			case 2: // cancel, sometimes by the wrong owner
				if len(known) == 0 {
					continue
				}
				id := known[rapid.IntRange(0, len(known)-1).Draw(rt, "which")]
				o := owners[rapid.IntRange(0, len(owners)-1).Draw(rt, "by")]
				mt := m.timers[id]
				refund, err := q.Cancel(o, id, h)
				switch {
				case mt == nil:
					if err != nil || refund.Sign() != 0 {
						rt.Fatalf("cancel of finished %d: %v %v", id, refund, err)
					}
				case mt.owner != o:
					if !errors.Is(err, ErrRefused) {
						rt.Fatalf("foreign cancel of %d: %v", id, err)
					}
				default:
					if err != nil || refund.Uint64() != mt.deposit {
						rt.Fatalf("cancel %d: %v %v", id, refund, err)
					}
					delete(m.timers, id)
				}
			case 3, 4:
				advance(rapid.IntRange(1, 300).Draw(rt, "blocks"))
			case 5: // crash and restart from the committed state
				st = mem.commit(rt, st)
				q = New(st)
			}
		}
		advance(1)

		escrow := new(big.Int)
		byOwner := map[types.Address][]uint64{}
		for id, mt := range m.timers {
			escrow.Add(escrow, new(big.Int).SetUint64(mt.deposit))
			byOwner[mt.owner] = append(byOwner[mt.owner], id)
		}
		if got := st.Balance(EscrowAddress); got.Cmp(escrow) != 0 {
			rt.Fatalf("escrow %s, pending deposits %s", got, escrow)
		}
		for _, o := range owners {
			got, err := q.ByOwner(o)
			if err != nil {
				rt.Fatal(err)
			}
			want := byOwner[o]
			slices.Sort(want)
			if !slices.Equal(got, want) {
				rt.Fatalf("owner %s: queue %v, model %v", o, got, want)
			}
		}
		if n, _ := q.Pending(); n != uint64(len(m.timers)) {
			rt.Fatalf("pending %d, model %d", n, len(m.timers))
		}
	})
}
