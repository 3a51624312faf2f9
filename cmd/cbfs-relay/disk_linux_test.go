package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// evictTree drops every regular file under root from the page cache
// (posix_fadvise DONTNEED on the whole file), so the next read of it comes
// from the disk: BenchmarkProcesses' cold reads. Only clean pages are
// dropped, so it is called after the files were fsynced.
func evictTree(root string) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		return evictFile(p)
	})
}

// evictFile drops one file's pages from the page cache.
func evictFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED)
}

// diskReadBytes sums read_bytes of /proc/PID/io (bytes this process and
// the relays made the block layer fetch) over this process and pids: a
// cold read that was served from the page cache shows ~0 here, so the
// benchmark can report whether its "from disk" figures reached the disk.
// -1 if the kernel does not account it.
func diskReadBytes(pids []int) int64 {
	var t int64
	for _, p := range append([]string{"self"}, pidStrings(pids)...) {
		b, err := os.ReadFile("/proc/" + p + "/io")
		if err != nil {
			return -1
		}
		found := false
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "read_bytes: "); ok {
				n, err := strconv.ParseInt(v, 10, 64)
				if err != nil {
					return -1
				}
				t += n
				found = true
			}
		}
		if !found {
			return -1
		}
	}
	return t
}

func pidStrings(pids []int) []string {
	s := make([]string, len(pids))
	for i, p := range pids {
		s[i] = strconv.Itoa(p)
	}
	return s
}
