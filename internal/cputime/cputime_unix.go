//go:build unix

package cputime

import (
	"syscall"
	"time"
)

// Process is the CPU time (user + system) this process has used, on all
// threads; zero if the system does not say.
func Process() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
