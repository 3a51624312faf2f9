package node

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// ErrHomeInUse is returned when another process holds the home directory.
var ErrHomeInUse = errors.New("home directory is in use")

// homeLock is an exclusive advisory lock on DIR/LOCK, released by the
// kernel when the process dies (so kill -9 never leaves a stale lock).
type homeLock struct{ f *os.File }

func lockHome(home string) (*homeLock, error) {
	if err := os.MkdirAll(home, 0o700); err != nil {
		return nil, fmt.Errorf("create home %s: %w", home, err)
	}
	path := filepath.Join(home, "LOCK")
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open lock %s: %w", path, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		b, _ := os.ReadFile(path)
		f.Close()
		holder := strings.TrimSpace(string(b))
		if holder == "" {
			holder = "another process"
		} else {
			holder = "process " + holder
		}
		return nil, fmt.Errorf("%w: %s is held by %s; stop it or use another --home", ErrHomeInUse, home, holder)
	}
	f.Truncate(0)
	f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	return &homeLock{f: f}, nil
}

func (l *homeLock) release() {
	syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
	l.f.Close()
}
