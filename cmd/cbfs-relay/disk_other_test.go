//go:build !linux

package main

// evictTree does nothing where posix_fadvise is not available: the cold
// figures of BenchmarkProcesses are then warm ones, and diskReadBytes says
// so (-1).
func evictTree(root string) error { return nil }

// diskReadBytes is -1 where /proc/PID/io is not available.
func diskReadBytes(pids []int) int64 { return -1 }
