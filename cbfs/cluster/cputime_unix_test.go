//go:build unix

package cluster

import (
	"syscall"
	"time"
)

// processCPU is the CPU time (user + system) of this process on all
// threads: on a shared machine the benchmarks report bytes per CPU-second
// beside wall-clock MB/s, which other jobs disturb much less.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
