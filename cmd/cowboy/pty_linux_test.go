//go:build linux

package main

import (
	"fmt"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// fakeTerminal is a pseudo-terminal for the prompts a docs transcript
// shows: the CLI opens its slave side as "the terminal", the test types
// the answers into the master side and reads back what was written there
// (the prompts). Echo is off, so what is typed does not come back.
type fakeTerminal struct {
	master *os.File
	fd     int    // master's descriptor, non-blocking
	slave  string // path of the slave side
}

func newFakeTerminal() (*fakeTerminal, error) {
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, err
	}
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		m.Close()
		return nil, fmt.Errorf("unlock pty: %w", err)
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		m.Close()
		return nil, fmt.Errorf("pty number: %w", err)
	}
	ft := &fakeTerminal{master: m, fd: int(m.Fd()), slave: fmt.Sprintf("/dev/pts/%d", n)}
	if err := unix.SetNonblock(ft.fd, true); err != nil {
		m.Close()
		return nil, err
	}
	s, err := ft.open()
	if err != nil {
		m.Close()
		return nil, err
	}
	defer s.Close()
	t, err := unix.IoctlGetTermios(int(s.Fd()), unix.TCGETS)
	if err != nil {
		m.Close()
		return nil, err
	}
	t.Lflag &^= unix.ECHO
	t.Oflag &^= unix.OPOST // no \r added to what the CLI writes
	if err := unix.IoctlSetTermios(int(s.Fd()), unix.TCSETS, t); err != nil {
		m.Close()
		return nil, err
	}
	return ft, nil
}

// open opens the slave side, as the CLI's openTTY does /dev/tty.
func (f *fakeTerminal) open() (*os.File, error) {
	return os.OpenFile(f.slave, os.O_RDWR|syscall.O_NOCTTY, 0)
}

// typeLines queues answers for the prompts.
func (f *fakeTerminal) typeLines(lines ...string) error {
	for _, l := range lines {
		if _, err := unix.Write(f.fd, []byte(l+"\n")); err != nil {
			return err
		}
	}
	return nil
}

// written returns what the CLI wrote to the terminal since the last call:
// what is buffered, read without waiting (the command has returned).
func (f *fakeTerminal) written() string {
	var out []byte
	buf := make([]byte, 4096)
	for {
		n, err := unix.Read(f.fd, buf)
		if n > 0 {
			out = append(out, buf[:n]...)
		}
		if err != nil || n <= 0 {
			return string(out)
		}
	}
}

func (f *fakeTerminal) Close() error { return f.master.Close() }
