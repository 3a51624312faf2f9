package node

import (
	"runtime/debug"
	rtmetrics "runtime/metrics"
	"testing"
)

func TestGCPercentFor(t *testing.T) {
	for _, c := range []struct {
		live uint64
		want int
	}{
		{0, gcMaxPercent},                // nothing measured yet
		{1 << 20, gcMaxPercent},          // 1 MiB: the floor asks for 51,100%
		{GCHeapFloor / 21, gcMaxPercent}, // goal 21× live: 2,000% exactly
		{GCHeapFloor/21 + 1, 1999},       // just above: below the cap
		{GCHeapFloor / 8, 700},           // goal = 8 × live
		{GCHeapFloor/2 - 1, 100},         // just under half: 100.0…%
		{GCHeapFloor / 2, 100},           // half: the default
		{GCHeapFloor, 100},               // above: the default
		{GCHeapFloor / 5, 400},           // goal = 5 × live
		{GCHeapFloor / 3, 200},           // goal = 3 × live
		{GCHeapFloor / 4, 300},           // goal = 4 × live
	} {
		if got := gcPercentFor(c.live); got != c.want {
			t.Errorf("gcPercentFor(%d) = %d, want %d", c.live, got, c.want)
		}
	}
}

// TestTuneGCLeavesGOGC: an operator's GOGC wins and nothing is started.
func TestTuneGCLeavesGOGC(t *testing.T) {
	t.Setenv("GOGC", "100")
	if TuneGC() {
		t.Fatal("TuneGC ran with GOGC set")
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
