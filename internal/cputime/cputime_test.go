package cputime

import (
	"runtime"
	"testing"
)

// TestProcessGrowsWithWork: spinning on the CPU must show in the reading
// (on systems that measure it at all).
func TestProcessGrowsWithWork(t *testing.T) {
	switch runtime.GOOS {
	case "windows", "plan9", "js", "wasip1":
		t.Skip("CPU time not measured on", runtime.GOOS)
	}
	before := Process()
	x := uint64(1)
	for round := 0; Process() <= before; round++ {
		if round == 100_000 {
			t.Fatalf("CPU time stayed at %v through 100,000 rounds of work", before)
		}
		for i := 0; i < 100_000; i++ {
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
	if x == 0 {
		t.Log(x) // keep the loop
	}
}
