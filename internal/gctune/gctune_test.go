package gctune

import (
	"runtime"
	"runtime/debug"
	rtmetrics "runtime/metrics"
	"testing"
	"time"
)

func TestGCPercentFor(t *testing.T) {
	for _, c := range []struct {
		live uint64
		want int
	}{
		{0, gcMaxPercent},              // nothing measured yet
		{1 << 20, gcMaxPercent},        // 1 MiB: the floor asks for 51,100%
		{HeapFloor / 21, gcMaxPercent}, // goal 21× live: 2,000% exactly
		{HeapFloor/21 + 1, 1999},       // just above: below the cap
		{HeapFloor / 8, 700},           // goal = 8 × live
		{HeapFloor/2 - 1, 100},         // just under half: 100.0…%
		{HeapFloor / 2, 100},           // half: the default
		{HeapFloor, 100},               // above: the default
		{HeapFloor / 5, 400},           // goal = 5 × live
		{HeapFloor / 3, 200},           // goal = 3 × live
		{HeapFloor / 4, 300},           // goal = 4 × live
	} {
		if got := gcPercentFor(c.live); got != c.want {
			t.Errorf("gcPercentFor(%d) = %d, want %d", c.live, got, c.want)
		}
	}
}

// TestStartLeavesGOGC: an operator's GOGC wins and nothing is started.
func TestStartLeavesGOGC(t *testing.T) {
	t.Setenv("GOGC", "100")
	if Start() {
		t.Fatal("Start ran with GOGC set")
	}
}

// TestGCTunerSetsPercent: adjust hands the runtime the percent it computed
// (the process's setting is restored afterwards).
func TestGCTunerSetsPercent(t *testing.T) {
	orig := debug.SetGCPercent(100)
	defer debug.SetGCPercent(orig)
	tu := &gcTuner{sample: []rtmetrics.Sample{{Name: "/gc/heap/live:bytes"}}}
	tu.adjust()
	if got := debug.SetGCPercent(100); got != tu.percent || got < 100 || got > gcMaxPercent {
		t.Fatalf("runtime GOGC %d, tuner chose %d", got, tu.percent)
	}
}

// TestGCTunerFollowsCollections: armed, the tuner runs after real
// collections and moves GOGC as the live heap grows; the finalizer hook
// re-arms itself, so it keeps doing so after the first cycle. The waits
// have a deadline but no time is asserted: a slow machine only waits
// longer.
func TestGCTunerFollowsCollections(t *testing.T) {
	orig := debug.SetGCPercent(77) // a value the tuner never chooses
	tu := &gcTuner{sample: []rtmetrics.Sample{{Name: "/gc/heap/live:bytes"}}, percent: 77}
	defer func() {
		tu.off.Store(true)
		runtime.GC() // the pending hook runs once more and stops
		debug.SetGCPercent(orig)
	}()
	gogc := []rtmetrics.Sample{{Name: "/gc/gogc:percent"}}
	// waitFor collects until the runtime's GOGC satisfies ok: the hook
	// runs on the finalizer goroutine after a cycle, not inside GC().
	waitFor := func(what string, ok func(int) bool) int {
		t.Helper()
		deadline := time.Now().Add(2 * time.Minute)
		for {
			runtime.GC()
			rtmetrics.Read(gogc)
			if p := int(gogc[0].Value.Uint64()); ok(p) {
				return p
			}
			if time.Now().After(deadline) {
				t.Fatalf("GOGC still %d: %s", gogc[0].Value.Uint64(), what)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	tu.arm()
	// The test binary's live heap is a few MiB: the cap (or near it).
	first := waitFor("no hook ran after a collection", func(p int) bool { return p != 77 })
	if first < 1000 || first > gcMaxPercent {
		t.Fatalf("small live heap: GOGC %d, want near the cap %d", first, gcMaxPercent)
	}
	// Hold HeapFloor/2 live: the goal falls to the runtime default. Only
	// a hook armed by an earlier hook can see it.
	hold := make([]byte, HeapFloor/2)
	for i := range hold {
		hold[i] = byte(i)
	}
	waitFor("the re-armed hook did not follow the live heap", func(p int) bool { return p == 100 })
	runtime.KeepAlive(hold)
}
