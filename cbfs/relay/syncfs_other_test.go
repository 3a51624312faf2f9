//go:build unix && !linux

package relay

import "os"

// syncfs is an fsync of f where syncfs(2) is Linux's alone.
func syncfs(f *os.File) error { return f.Sync() }
