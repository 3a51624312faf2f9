//go:build !linux

package main

import "time"

// cpuTime is zero where /proc and getrusage are not available: the
// benchmark then reports wall time only.
func cpuTime(pids []int) time.Duration { return 0 }

// userSys is zero here too.
func userSys(pids []int) (selfUser, selfSys, user, sys time.Duration) { return 0, 0, 0, 0 }
