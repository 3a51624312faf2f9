package relay

import (
	"errors"
	"net"
	"testing"
)

// flakyListener fails Accept with a passing error (as EMFILE does) a few
// times, then reports itself closed.
type flakyListener struct {
	net.Listener
	fails, calls int
}

func (l *flakyListener) Accept() (net.Conn, error) {
	l.calls++
	if l.calls <= l.fails {
		return nil, errors.New("accept: too many open files")
	}
	return nil, net.ErrClosed
}

// TestAcceptTCPOutlastsErrors: a failed Accept that did not close the
// listener does not end the TCP path; only a closed listener does.
func TestAcceptTCPOutlastsErrors(t *testing.T) {
	l := &flakyListener{fails: 3}
	s := &Server{}
	s.wg.Add(1)
	s.acceptTCP(l, nil)
	if l.calls != 4 {
		t.Fatalf("Accept called %d times, want 4 (3 failures, then closed)", l.calls)
	}
}
