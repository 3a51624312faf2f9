//go:build linux

package relay

import (
	"os"

	"golang.org/x/sys/unix"
)

// syncfs flushes the whole file system holding f (BenchmarkShardDisk's
// comparison with per-file fsyncs).
func syncfs(f *os.File) error { return unix.Syncfs(int(f.Fd())) }
