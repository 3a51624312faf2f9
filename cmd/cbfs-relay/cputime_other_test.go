//go:build !linux

package main

import "time"

// cpuTime is zero where /proc and getrusage are not available: the
// benchmark then reports wall time only.
func cpuTime(pids []int) time.Duration { return 0 }
