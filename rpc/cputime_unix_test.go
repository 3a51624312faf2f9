//go:build unix

package rpc

import (
	"syscall"
	"time"
)

// processCPU is the CPU time (user + system) this process has used, on all
// threads: the benchmarks' measure of work, which other jobs on a shared
// machine disturb much less than wall time.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
