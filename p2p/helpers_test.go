package p2p

import (
	"bytes"
	"context"
	"net"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quic-go/quic-go"

	"github.com/cowboy-chain/cowboy/crypto"
)

const testChainID = 7

var testGenesis = [32]byte{1, 2, 3}

// TestMain fails the package if any goroutine of this package or of
// quic-go outlives the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 {
		if leaked := waitNoLeak(5 * time.Second); leaked != "" {
			os.Stderr.WriteString("p2p: goroutines leaked after all tests:\n" + leaked)
			code = 1
		}
	}
	os.Exit(code)
}

// leakedStacks returns the stacks of goroutines running code of this
// package's Host/peer or of quic-go, which must all end with Close.
func leakedStacks() string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var out []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "github.com/quic-go/quic-go") ||
			strings.Contains(g, "cowboy/p2p.(*Host)") || strings.Contains(g, "cowboy/p2p.(*peer)") {
			out = append(out, g)
		}
	}
	return strings.Join(out, "\n\n")
}

// waitNoLeak polls for up to grace for such goroutines to be gone.
func waitNoLeak(grace time.Duration) string {
	deadline := time.Now().Add(grace)
	for {
		s := leakedStacks()
		if s == "" || time.Now().After(deadline) {
			return s
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func mustKey(t testing.TB) *crypto.PrivateKey {
	t.Helper()
	k, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// testConfig is a loopback config with fast timers.
func testConfig(t testing.TB) Config {
	return Config{
		Key:          mustKey(t),
		ListenAddr:   "127.0.0.1:0",
		ChainID:      testChainID,
		GenesisHash:  testGenesis,
		DialInterval: 50 * time.Millisecond,
		PexInterval:  200 * time.Millisecond,
		ReconnectMin: 50 * time.Millisecond,
		ReconnectMax: 400 * time.Millisecond,
		Limits:       Limits{HandshakeTimeout: 2 * time.Second},
	}
}

// startHost builds and starts a Host, closed at the end of the test.
func startHost(t testing.TB, mod func(*Config)) *Host {
	t.Helper()
	cfg := testConfig(t)
	if mod != nil {
		mod(&cfg)
	}
	h, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

func waitFor(t testing.TB, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", timeout, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func hasPeer(h *Host, id PeerID) bool {
	for _, p := range h.Peers() {
		if p.ID == id {
			return true
		}
	}
	return false
}

func recv(t testing.TB, ch <-chan Message, timeout time.Duration) Message {
	t.Helper()
	select {
	case m := <-ch:
		return m
	case <-time.After(timeout):
		t.Fatal("no message received")
	}
	return Message{}
}

// rawClient is a QUIC client with a valid node identity that speaks the
// frame protocol by hand, to send what a Host never would.
type rawClient struct {
	id   PeerID
	tr   *quic.Transport
	udp  *net.UDPConn
	conn *quic.Conn
}

func dialRaw(t testing.TB, target *Host, key *crypto.PrivateKey) (*rawClient, error) {
	t.Helper()
	udp, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	c := &rawClient{id: IDFromKey(key), udp: udp, tr: &quic.Transport{Conn: udp}}
	t.Cleanup(c.close)
	cert, err := newCertificate(key)
	if err != nil {
		t.Fatal(err)
	}
	ua, _ := net.ResolveUDPAddr("udp", target.Addr())
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	c.conn, err = c.tr.Dial(ctx, ua, tlsConfig(cert, nil), &quic.Config{})
	return c, err
}

func (c *rawClient) close() {
	if c.conn != nil {
		c.conn.CloseWithError(0, "")
	}
	c.tr.Close()
	c.udp.Close()
}

// hello opens the control stream and sends a Hello for chainID.
func (c *rawClient) hello(t testing.TB, chainID uint64) *quic.SendStream {
	t.Helper()
	s, err := c.conn.OpenUniStream()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Write(encodeFrame(&frame{kind: kindHello, hello: hello{
		Version: protocolVersion, ChainID: chainID, GenesisHash: testGenesis,
		NodeID: c.id, ListenAddr: c.udp.LocalAddr().String(),
	}})); err != nil {
		t.Fatal(err)
	}
	return s
}

// waitClosed waits until the host has closed the raw connection.
func (c *rawClient) waitClosed(t testing.TB) {
	t.Helper()
	select {
	case <-c.conn.Context().Done():
	case <-time.After(3 * time.Second):
		t.Fatal("host did not close the connection")
	}
}

// beforeMarker reads ch until a message with payload marker arrives and
// returns what came before it. Frames of one topic travel in order on a
// connection, so once the marker sent after some event has arrived,
// anything that event sent over the same connection has arrived too: a
// "nothing else arrived" check that a slow machine cannot pass vacuously,
// unlike a sleep.
func beforeMarker(t testing.TB, ch <-chan Message, marker string, timeout time.Duration) []Message {
	t.Helper()
	var before []Message
	deadline := time.After(timeout)
	for {
		select {
		case m := <-ch:
			if string(m.Payload) == marker {
				return before
			}
			before = append(before, m)
		case <-deadline:
			t.Fatalf("marker %q not received within %v", marker, timeout)
		}
	}
}

// lockedBuffer collects a host's log lines; the host writes from several
// goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
