//go:build unix

package relay

import (
	"os"
	"syscall"
)

// fileLinks is how many directory entries name the file at p (1 for a
// shard no rename linked; 0 if it cannot be told).
func fileLinks(p string) uint64 {
	fi, err := os.Stat(p)
	if err != nil {
		return 0
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 0
}
