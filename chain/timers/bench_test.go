package timers

import (
	"encoding/binary"
	"fmt"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/types"
)

// benchDensity is how many timers each future height holds in the
// benchmarks: pending = density × horizon, so a larger queue reaches
// further ahead (10^6 pending reach 125,000 blocks, deep into the
// overflow set) while each block has the same number due. That is the
// claim being measured: per-block work depends on what is due and on one
// epoch's migration share, not on how many timers are pending.
const benchDensity = 8

// benchScheduled is where the benchmark timers are scheduled (epoch 2);
// blocks run from there to benchStart (epoch 3) so the tiers are in the
// state maintenance leaves them in, and the block measured is benchStart+1.
const (
	benchScheduled = 600
	benchStart     = 1000
)

func benchOwner(i int) types.Address {
	var a types.Address
	a[0] = 0xbe
	binary.BigEndian.PutUint64(a[12:], uint64(i))
	return a
}

// pendingQueue returns a committed state at the end of block benchStart
// holding n pending timers, benchDensity due at each height after it.
func pendingQueue(b *testing.B, n int) memStore {
	mem := memStore{}
	st := state.New(mem)
	q := New(st)
	for i := range n {
		o := benchOwner(i / benchDensity)
		if i%benchDensity == 0 {
			fund(st, o, cby(10))
		}
		due := uint64(benchStart + 1 + i/benchDensity)
		if _, _, err := q.Schedule(Request{Owner: o, Handler: "tick", Data: []byte{0xf6}, Due: due}, benchScheduled); err != nil {
			b.Fatal(err)
		}
		if i%20_000 == 19_999 {
			st = mem.commit(b, st)
			q = New(st)
		}
	}
	for h := uint64(benchScheduled); h <= benchStart; h++ {
		runAll(b, q, h)
	}
	mem.commit(b, st)
	return mem
}

var benchSizes = []int{1_000, 10_000, 100_000, 1_000_000}

// BenchmarkQueue measures, for n pending timers: one set_timer at a near
// height (Tier 1), a mid one (Tier 2) and a far one (Tier 3); and one
// block's queue work: Due (this height's slot into the backlog, candidates
// out), Settle (all ran: records deleted, deposits refunded) and Maintain
// (the epoch migration shares), each half also timed on its own. Handlers
// are not run here (see chain/execution's BenchmarkTimerDelivery). Each
// iteration works on a fresh view of the same committed state.
func BenchmarkQueue(b *testing.B) {
	for _, n := range benchSizes {
		mem := pendingQueue(b, n)
		for _, c := range []struct {
			tier  string
			ahead uint64
		}{{"ring", 100}, {"epoch", 10_000}, {"overflow", 200_000}} {
			b.Run(fmt.Sprintf("pending=%d/enqueue-%s", n, c.tier), func(b *testing.B) {
				o := addr(200)
				for b.Loop() {
					st := state.New(mem)
					fund(st, o, cby(100))
					if _, _, err := New(st).Schedule(Request{Owner: o, Handler: "tick", Due: benchStart + c.ahead}, benchStart+1); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		b.Run(fmt.Sprintf("pending=%d/block", n), func(b *testing.B) {
			var due, moved int
			var delivery, maintenance time.Duration
			for b.Loop() {
				st := state.New(mem)
				q := New(st)
				h := uint64(benchStart + 1)
				t0 := time.Now()
				cs, err := q.Due(h)
				if err != nil {
					b.Fatal(err)
				}
				outs := make([]Outcome, len(cs))
				for i, c := range cs {
					outs[i] = Outcome{Timer: c, Ran: true}
				}
				if _, err := q.Settle(h, outs); err != nil {
					b.Fatal(err)
				}
				t1 := time.Now()
				m, err := q.Maintain(h)
				if err != nil {
					b.Fatal(err)
				}
				delivery, maintenance = delivery+t1.Sub(t0), maintenance+time.Since(t1)
				if _, err := st.Writes(); err != nil {
					b.Fatal(err)
				}
				due, moved = len(cs), m
			}
			b.ReportMetric(float64(due), "due/block")
			b.ReportMetric(float64(moved), "moved/block")
			// The two halves of a block's queue work, the write set apart.
			b.ReportMetric(float64(delivery.Nanoseconds())/float64(b.N), "deliver-ns/block")
			b.ReportMetric(float64(maintenance.Nanoseconds())/float64(b.N), "maintain-ns/block")
		})
	}
}
