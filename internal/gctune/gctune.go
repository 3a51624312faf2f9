// Package gctune is the garbage-collector policy of a process that runs
// one node (cowboyd) or measures one (the node benchmarks, pyperfbench
// -gc node). It is a leaf package so that tools can use the policy
// without linking the node.
package gctune

import (
	"os"
	"runtime"
	"runtime/debug"
	rtmetrics "runtime/metrics"
	"sync"
	"sync/atomic"
)

// HeapFloor is the heap a node process lets grow before it collects
// garbage: while the live heap is below half of it, the collector's target
// (GOGC) is raised so that the next collection starts at about this size;
// above that the runtime's default (GOGC=100, a collection each time the
// heap doubles) applies. The block loop allocates a few KB per transfer
// against a live heap of tens of MB, so at the default a node collects
// every ~10,000 transfers and spends 3-4 µs of CPU per transfer in the
// collector, about a fifth of a transfer's cost besides its signature
// (docs/benchmarks.md, issue 17 phase 8). Peak heap is at most
// max(HeapFloor, twice the live heap) plus what the runtime keeps. A
// 512 MiB floor measured worse end to end: the devnet's heap kept growing
// into fresh pages, and the page faults and cold caches cost more CPU
// than the collections saved.
const HeapFloor = 256 << 20

// gcMaxPercent bounds the raised target while the live heap is tiny (just
// after start), where the floor would ask for thousands of percent.
const gcMaxPercent = 2000

var gcTune sync.Once

// Start starts the node's collector policy (HeapFloor) for the rest of
// the process; it reports whether it did. An operator's GOGC environment
// variable wins: then the runtime's setting stays and Start does nothing.
// A GOMEMLIMIT still bounds the heap either way. It is for processes that
// run one node (cowboyd) and its benchmarks, not for library users.
func Start() bool {
	if os.Getenv("GOGC") != "" {
		return false
	}
	gcTune.Do(func() {
		t := &gcTuner{sample: []rtmetrics.Sample{{Name: "/gc/heap/live:bytes"}}}
		t.adjust()
		t.arm()
	})
	return true
}

// gcTuner re-sets GOGC after every collection from the live heap it left.
type gcTuner struct {
	sample  []rtmetrics.Sample
	percent int
	// off ends the chain of hooks: the next one to run neither adjusts
	// nor re-arms. The process-wide tuner never sets it; a test does.
	off atomic.Bool
}

// arm hooks the next collection: an object with a finalizer, unreachable
// at once, is finalized after the next cycle, and the finalizer re-arms.
func (t *gcTuner) arm() {
	h := new(gcHook)
	runtime.SetFinalizer(h, func(*gcHook) {
		if t.off.Load() {
			return
		}
		t.adjust()
		t.arm()
	})
}

// gcHook is the object whose finalizer runs after each collection. It
// holds a pointer so it is neither zero-size (those share one address and
// are never collected) nor a tiny pointer-free object (those share a block
// with others, which can delay the finalizer by many cycles).
type gcHook struct{ _ *gcTuner }

func (t *gcTuner) adjust() {
	rtmetrics.Read(t.sample)
	var live uint64
	if t.sample[0].Value.Kind() == rtmetrics.KindUint64 {
		live = t.sample[0].Value.Uint64()
	}
	p := gcPercentFor(live)
	// Only a change of more than a tenth is worth telling the runtime.
	if d := p - t.percent; d*10 > t.percent || -d*10 > t.percent {
		t.percent = p
		debug.SetGCPercent(p)
	}
}

// gcPercentFor is the GOGC that starts the next collection at about
// HeapFloor above a live heap of live bytes: goal = live × (1 +
// GOGC/100), never below the default 100 nor above gcMaxPercent.
func gcPercentFor(live uint64) int {
	switch {
	case live == 0:
		return gcMaxPercent
	case live >= HeapFloor/2:
		return 100
	}
	return min(int(HeapFloor*100/live)-100, gcMaxPercent)
}
