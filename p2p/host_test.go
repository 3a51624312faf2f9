package p2p

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestHandshakeAndDirect(t *testing.T) {
	a := startHost(t, nil)
	b := startHost(t, func(c *Config) { c.Height = func() uint64 { return 99 } })
	votes := a.Subscribe(TopicVote)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if err := b.Connect(ctx, a.ID().String()+"@"+a.Addr()); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 2*time.Second, "both sides connected", func() bool { return hasPeer(a, b.ID()) && hasPeer(b, a.ID()) })
	pa := a.Peers()[0]
	if !pa.Inbound || pa.Height != 99 || pa.Addr != b.Addr() || pa.Score != 0 {
		t.Fatalf("a's view of b: %+v (b at %s)", pa, b.Addr())
	}
	if err := b.Send(a.ID(), TopicVote, []byte("vote for block 1")); err != nil {
		t.Fatal(err)
	}
	m := recv(t, votes, 2*time.Second)
	if m.From != b.ID() || !m.Direct || m.Topic != TopicVote || string(m.Payload) != "vote for block 1" {
		t.Fatalf("got %+v", m)
	}
	// Direct messages are not relayed and not deduplicated.
	if err := b.Send(a.ID(), TopicVote, []byte("vote for block 1")); err != nil {
		t.Fatal(err)
	}
	recv(t, votes, 2*time.Second)

	if err := b.Send(PeerID{9}, TopicVote, []byte("x")); !errors.Is(err, ErrNotConnected) {
		t.Fatalf("send to a stranger: %v", err)
	}
	if err := b.Send(a.ID(), TopicVote, make([]byte, DefaultLimits().MaxVoteBytes+1)); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("oversized send: %v", err)
	}
	if err := b.Publish(Topic(9), []byte("x")); !errors.Is(err, ErrUnknownTopic) {
		t.Fatalf("unknown topic: %v", err)
	}
}

func TestIdentityMismatchRefused(t *testing.T) {
	a := startHost(t, nil)
	b := startHost(t, nil)
	c := startHost(t, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	// c believes b lives at a's address.
	err := c.Connect(ctx, b.ID().String()+"@"+a.Addr())
	if err == nil {
		t.Fatal("connected to the wrong node")
	}
	if len(c.Peers()) != 0 || len(a.Peers()) != 0 {
		t.Fatalf("peers after a refused handshake: c %v, a %v", c.Peers(), a.Peers())
	}
	// With the right ID it works, and an unpinned address accepts anyone.
	if err := c.Connect(ctx, a.ID().String()+"@"+a.Addr()); err != nil {
		t.Fatal(err)
	}
	if err := c.Connect(ctx, b.Addr()); err != nil {
		t.Fatal(err)
	}
	// Connecting to ourselves is refused.
	if err := c.Connect(ctx, c.Addr()); err == nil {
		t.Fatal("connected to self")
	}
}

func TestWrongChainRefused(t *testing.T) {
	a := startHost(t, nil)
	for _, mod := range []func(*Config){
		func(c *Config) { c.ChainID = testChainID + 1 },
		func(c *Config) { c.GenesisHash = [32]byte{0xff} },
	} {
		b := startHost(t, mod)
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		err := b.Connect(ctx, a.Addr())
		cancel()
		if err == nil {
			t.Fatal("peer on another network connected")
		}
		waitFor(t, 2*time.Second, "a bans b", func() bool { return a.scores.banned(b.ID(), time.Now()) })
		if !b.scores.banned(a.ID(), time.Now()) {
			t.Fatal("b does not ban a")
		}
		if len(a.Peers()) != 0 || len(b.Peers()) != 0 {
			t.Fatal("peers registered across networks")
		}
	}
}

// TestLineDiscoveryAndGossip: five nodes, each bootstrapping only from its
// predecessor, find each other by peer exchange; a message gossiped from
// either end reaches every other node exactly once.
func TestLineDiscoveryAndGossip(t *testing.T) {
	const n = 5
	hosts := make([]*Host, n)
	subs := make([]<-chan Message, n)
	for i := range hosts {
		hosts[i] = startHost(t, func(c *Config) {
			if i > 0 {
				c.Bootstrap = []string{hosts[i-1].Addr()}
				if i%2 == 0 { // half pinned by ID
					c.Bootstrap[0] = hosts[i-1].ID().String() + "@" + c.Bootstrap[0]
				}
			}
		})
		subs[i] = hosts[i].Subscribe(TopicTx)
	}
	waitFor(t, 8*time.Second, "full mesh by peer exchange", func() bool {
		for _, h := range hosts {
			if len(h.Peers()) != n-1 {
				return false
			}
		}
		return true
	})
	for round, from := range []int{0, n - 1} {
		payload := []byte(fmt.Sprintf("tx %d", round))
		if err := hosts[from].Publish(TopicTx, payload); err != nil {
			t.Fatal(err)
		}
		for i, ch := range subs {
			if i == from {
				continue
			}
			m := recv(t, ch, 3*time.Second)
			if !bytes.Equal(m.Payload, payload) || m.ID != msgID(TopicTx, payload) || m.Direct {
				t.Fatalf("node %d got %+v", i, m)
			}
		}
	}
	// Every node relayed both messages when it received them, before the
	// markers below: a copy that got past the duplicate filter arrives
	// ahead of the marker from the same sender.
	for i, h := range hosts {
		if err := h.Publish(TopicTx, []byte(fmt.Sprintf("marker %d", i))); err != nil {
			t.Fatal(err)
		}
	}
	var dups uint64
	for i, ch := range subs {
		seen := map[string]bool{}
		for len(seen) < n-1 {
			m := recv(t, ch, 10*time.Second)
			if !strings.HasPrefix(string(m.Payload), "marker ") || seen[string(m.Payload)] {
				t.Fatalf("node %d received %q twice", i, m.Payload)
			}
			seen[string(m.Payload)] = true
		}
		dups += hosts[i].Stats().Duplicates
	}
	if dups == 0 {
		t.Fatal("a full mesh must have suppressed some duplicates")
	}
	// Republishing a seen payload is a no-op: nothing arrives before the
	// next new message from the same node.
	if err := hosts[2].Publish(TopicTx, []byte("tx 0")); err != nil {
		t.Fatal(err)
	}
	if err := hosts[2].Publish(TopicTx, []byte("after republish")); err != nil {
		t.Fatal(err)
	}
	for i, ch := range subs {
		if i == 2 {
			continue
		}
		for _, m := range beforeMarker(t, ch, "after republish", 10*time.Second) {
			if !strings.HasPrefix(string(m.Payload), "marker ") { // late relays of the markers are fine
				t.Fatalf("node %d received %q after its republication", i, m.Payload)
			}
		}
	}
}

// TestRelayAlongLine: without peer exchange dialling (huge DialInterval),
// a chain of explicit connections stays a line and gossip must be relayed
// hop by hop.
func TestRelayAlongLine(t *testing.T) {
	const n = 4
	hosts := make([]*Host, n)
	for i := range hosts {
		hosts[i] = startHost(t, func(c *Config) { c.DialInterval = time.Hour; c.PexInterval = time.Hour })
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for i := 1; i < n; i++ {
		if err := hosts[i].Connect(ctx, hosts[i-1].Addr()); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, 2*time.Second, "links up at both ends", func() bool {
		for i := 1; i < n; i++ {
			if !hasPeer(hosts[i-1], hosts[i].ID()) {
				return false
			}
		}
		return true
	})
	last := hosts[n-1].Subscribe(TopicBlock)
	block := bytes.Repeat([]byte("block"), 200_000) // 1 MB, several QUIC flow-control windows
	if err := hosts[0].Publish(TopicBlock, block); err != nil {
		t.Fatal(err)
	}
	m := recv(t, last, 5*time.Second)
	if !bytes.Equal(m.Payload, block) || m.From != hosts[n-2].ID() {
		t.Fatalf("relayed block from %s, %d bytes", m.From, len(m.Payload))
	}
	if len(hosts[0].Peers()) != 1 {
		t.Fatal("the line grew extra links")
	}
}

// TestGarbageDisconnects: garbage and oversized frames from a raw QUIC
// client disconnect it and lower its score; repeated, the ID is banned;
// an honest peer of the same host is unaffected throughout.
func TestGarbageDisconnects(t *testing.T) {
	a := startHost(t, nil)
	honest := startHost(t, func(c *Config) { c.Bootstrap = []string{a.Addr()} })
	waitFor(t, 2*time.Second, "honest peer", func() bool { return hasPeer(a, honest.ID()) })
	votes := a.Subscribe(TopicVote)
	key := mustKey(t)
	bad := IDFromKey(key)

	attacks := []struct {
		name string
		send func(c *rawClient)
	}{
		{"garbage after hello", func(c *rawClient) {
			c.hello(t, testChainID)
			s, _ := c.conn.OpenUniStream()
			s.Write([]byte("\x63 this is not a frame at all"))
		}},
		{"oversized frame", func(c *rawClient) {
			s := c.hello(t, testChainID)
			s.Write(header(kindGossip, TopicTx, uint32(a.lim.MaxTxBytes)+1))
		}},
		{"garbage instead of hello", func(c *rawClient) {
			s, _ := c.conn.OpenUniStream()
			s.Write(bytes.Repeat([]byte{0xff}, 100))
		}},
	}
	want := 0
	for _, at := range attacks {
		c, err := dialRaw(t, a, key)
		if err != nil {
			t.Fatalf("%s: dial: %v", at.name, err)
		}
		at.send(c)
		c.waitClosed(t)
		want -= 40
		if got := a.scores.score(bad, time.Now()); got > want+1 && want > a.lim.BanScore {
			t.Fatalf("%s: score %d, want about %d", at.name, got, want)
		}
		waitFor(t, 2*time.Second, at.name+": attacker unregistered", func() bool { return !hasPeer(a, bad) })
		if err := honest.Send(a.ID(), TopicVote, []byte(at.name)); err != nil {
			t.Fatal(err)
		}
		if m := recv(t, votes, 2*time.Second); string(m.Payload) != at.name {
			t.Fatalf("honest message %q", m.Payload)
		}
	}
	if !a.scores.banned(bad, time.Now()) {
		t.Fatalf("attacker not banned at score %d", a.scores.score(bad, time.Now()))
	}
	// In TLS 1.3 the client's handshake completes before the server has
	// checked the client's certificate, so the refusal may come as a close.
	if c, err := dialRaw(t, a, key); err == nil {
		c.waitClosed(t)
	}
	if hasPeer(a, bad) {
		t.Fatal("banned ID registered")
	}
	if a.Stats().Violations != uint64(len(attacks)) {
		t.Fatalf("violations %d", a.Stats().Violations)
	}
	if !hasPeer(a, honest.ID()) || a.scores.score(honest.ID(), time.Now()) != 0 {
		t.Fatal("honest peer affected")
	}
}

func TestRateLimit(t *testing.T) {
	a := startHost(t, func(c *Config) { c.Limits.MsgsPerSec = 20; c.Limits.MsgBurst = 20 })
	txs := a.Subscribe(TopicTx)
	c, err := dialRaw(t, a, mustKey(t))
	if err != nil {
		t.Fatal(err)
	}
	c.hello(t, testChainID)
	waitFor(t, 2*time.Second, "raw peer registered", func() bool { return hasPeer(a, c.id) })
	s, _ := c.conn.OpenUniStream()
	var flood []byte
	for i := range 200 {
		flood = append(flood, encodeFrame(&frame{kind: kindGossip, topic: TopicTx, payload: []byte(fmt.Sprint(i))})...)
	}
	s.Write(flood)
	c.waitClosed(t)
	if got := a.scores.score(c.id, time.Now()); got != -penaltyRateLimit {
		t.Fatalf("score %d, want %d", got, -penaltyRateLimit)
	}
	// The burst (20 frames, one of them the Hello) got through, no more.
	if n := len(txs); n > 20 || n == 0 {
		t.Fatalf("%d messages delivered from a peer limited to a burst of 20", n)
	}
}

// TestReconnect: a bootstrap peer that restarts (same key and address) is
// dialled again with backoff.
func TestReconnect(t *testing.T) {
	key := mustKey(t)
	a := startHost(t, func(c *Config) { c.Key = key })
	addr := a.Addr()
	b := startHost(t, func(c *Config) { c.Bootstrap = []string{a.ID().String() + "@" + addr} })
	waitFor(t, 2*time.Second, "first connection", func() bool { return hasPeer(b, a.ID()) })
	if !b.Connected(a.ID()) || b.Connected(PeerID{9}) {
		t.Fatal("Connected disagrees with Peers")
	}
	a.Close()
	waitFor(t, 3*time.Second, "b notices a is gone", func() bool { return !hasPeer(b, a.ID()) })
	if b.Connected(a.ID()) {
		t.Fatal("Connected after the peer left")
	}
	time.Sleep(200 * time.Millisecond) // a few failed redials
	a2 := startHost(t, func(c *Config) { c.Key = key; c.ListenAddr = addr })
	waitFor(t, 3*time.Second, "reconnection", func() bool { return hasPeer(b, a2.ID()) && hasPeer(a2, b.ID()) })
}

// TestSimultaneousDial: both sides dialling at once end with one
// connection each way agreed.
func TestSimultaneousDial(t *testing.T) {
	a := startHost(t, func(c *Config) { c.DialInterval = time.Hour })
	b := startHost(t, func(c *Config) { c.DialInterval = time.Hour })
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	done := make(chan error, 2)
	go func() { done <- a.Connect(ctx, b.Addr()) }()
	go func() { done <- b.Connect(ctx, a.Addr()) }()
	<-done
	<-done
	waitFor(t, 3*time.Second, "one agreed connection", func() bool {
		pa, pb := a.Peers(), b.Peers()
		return len(pa) == 1 && len(pb) == 1 && pa[0].Inbound != pb[0].Inbound
	})
	ch := b.Subscribe(TopicTx)
	a.Publish(TopicTx, []byte("hi"))
	recv(t, ch, 2*time.Second)
}

func TestSlowSubscriberDrops(t *testing.T) {
	a := startHost(t, func(c *Config) { c.Limits.SubscribeBuffer = 2 })
	b := startHost(t, func(c *Config) { c.Bootstrap = []string{a.Addr()} })
	slow := a.Subscribe(TopicTx)
	waitFor(t, 2*time.Second, "connected", func() bool { return hasPeer(a, b.ID()) && hasPeer(b, a.ID()) })
	for i := range 10 {
		b.Publish(TopicTx, []byte{byte(i)})
	}
	waitFor(t, 2*time.Second, "drops counted", func() bool { return a.Stats().DroppedInbound == 8 })
	if len(slow) != 2 {
		t.Fatalf("buffer holds %d", len(slow))
	}
}

// TestCloseNoLeak: Close stops every goroutine of the host and of quic-go,
// with peers connected and traffic flowing, and closes subscriptions.
func TestCloseNoLeak(t *testing.T) {
	if s := waitNoLeak(3 * time.Second); s != "" {
		t.Skip("goroutines of an earlier test still running")
	}
	before := runtime.NumGoroutine()
	var hosts []*Host
	for i := range 3 {
		hosts = append(hosts, startHost(t, func(c *Config) {
			if i > 0 {
				c.Bootstrap = []string{hosts[0].Addr()}
			}
		}))
	}
	sub := hosts[2].Subscribe(TopicTx)
	waitFor(t, 5*time.Second, "mesh", func() bool { return len(hosts[2].Peers()) == 2 })
	hosts[0].Publish(TopicTx, []byte("x"))
	recv(t, sub, 2*time.Second)
	for _, h := range hosts {
		if err := h.Close(); err != nil {
			t.Fatal(err)
		}
		h.Close() // idempotent
	}
	if _, ok := <-sub; ok {
		t.Fatal("subscription not closed")
	}
	if err := hosts[0].Publish(TopicTx, []byte("y")); !errors.Is(err, ErrClosed) {
		t.Fatalf("publish after close: %v", err)
	}
	if s := waitNoLeak(3 * time.Second); s != "" {
		t.Fatalf("goroutines left after Close:\n%s", s)
	}
	waitFor(t, 3*time.Second, "goroutine count back to its start", func() bool { return runtime.NumGoroutine() <= before })
	// A host closed before Start leaks nothing either.
	h, err := New(testConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	h.Close()
	if err := h.Start(context.Background()); !errors.Is(err, ErrClosed) {
		t.Fatalf("start after close: %v", err)
	}
}

// TestValidateStopsRelay: a message the middle node's Validate refuses is
// neither delivered there nor relayed further.
func TestValidateStopsRelay(t *testing.T) {
	quiet := func(c *Config) { c.DialInterval = time.Hour; c.PexInterval = time.Hour }
	a := startHost(t, quiet)
	b := startHost(t, func(c *Config) {
		quiet(c)
		c.Validate = func(topic Topic, from PeerID, payload []byte) error {
			if bytes.HasPrefix(payload, []byte("bad")) {
				return errors.New("invalid")
			}
			return nil
		}
	})
	c := startHost(t, quiet)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if err := b.Connect(ctx, a.Addr()); err != nil {
		t.Fatal(err)
	}
	if err := c.Connect(ctx, b.Addr()); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 2*time.Second, "links up at both ends", func() bool { return hasPeer(a, b.ID()) && hasPeer(b, c.ID()) })
	atB, atC := b.Subscribe(TopicBlock), c.Subscribe(TopicBlock)
	a.Publish(TopicBlock, []byte("bad block"))
	a.Publish(TopicBlock, []byte("good block"))
	if m := recv(t, atB, 2*time.Second); string(m.Payload) != "good block" {
		t.Fatalf("b delivered %q", m.Payload)
	}
	if m := recv(t, atC, 2*time.Second); string(m.Payload) != "good block" {
		t.Fatalf("c got %q", m.Payload)
	}
	if b.Stats().Rejected != 1 || len(atC) != 0 {
		t.Fatalf("rejected %d, c queue %d", b.Stats().Rejected, len(atC))
	}
}

// TestFullNodeStillBootstraps: a bootstrap node at MaxPeers refuses a
// newcomer but hands it its peers' addresses first.
func TestFullNodeStillBootstraps(t *testing.T) {
	a := startHost(t, func(c *Config) { c.MaxPeers = 1 })
	b := startHost(t, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if err := b.Connect(ctx, a.Addr()); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 2*time.Second, "a has b", func() bool { return hasPeer(a, b.ID()) })
	c := startHost(t, func(cfg *Config) { cfg.Bootstrap = []string{a.Addr()} })
	waitFor(t, 5*time.Second, "c finds b through full a", func() bool { return hasPeer(c, b.ID()) })
	if len(a.Peers()) != 1 {
		t.Fatalf("a has %d peers, MaxPeers 1", len(a.Peers()))
	}
	if hasPeer(c, a.ID()) {
		waitFor(t, 3*time.Second, "a's refusal closes", func() bool { return !hasPeer(c, a.ID()) })
	}
}

// TestKeepNew pins the duplicate-connection rule at one end: a new
// incarnation always replaces, otherwise the tie-break by direction.
func TestKeepNew(t *testing.T) {
	small, big := PeerID{1}, PeerID{2}
	inc1, inc2 := [8]byte{1}, [8]byte{2}
	cases := []struct {
		name       string
		self       PeerID
		old, nw    *peer
		wantNewWin bool
	}{
		{"same incarnation, both inbound: newer wins", small, &peer{id: big, inbound: true, inc: inc1}, &peer{id: big, inbound: true, inc: inc1}, true},
		{"same incarnation, both outbound: newer wins", small, &peer{id: big, inc: inc1}, &peer{id: big, inc: inc1}, true},
		{"same incarnation, new dialled by smaller self", small, &peer{id: big, inbound: true, inc: inc1}, &peer{id: big, inc: inc1}, true},
		{"same incarnation, old dialled by smaller self", small, &peer{id: big, inc: inc1}, &peer{id: big, inbound: true, inc: inc1}, false},
		{"same incarnation, new dialled by smaller peer", big, &peer{id: small, inc: inc1}, &peer{id: small, inbound: true, inc: inc1}, true},
		{"same incarnation, old dialled by smaller peer", big, &peer{id: small, inbound: true, inc: inc1}, &peer{id: small, inc: inc1}, false},
		{"new incarnation beats an old one dialled by smaller self", small, &peer{id: big, inc: inc1}, &peer{id: big, inbound: true, inc: inc2}, true},
		{"new incarnation beats an old one dialled by smaller peer", big, &peer{id: small, inbound: true, inc: inc1}, &peer{id: small, inc: inc2}, true},
	}
	for _, c := range cases {
		if got := keepNew(c.self, c.old, c.nw); got != c.wantNewWin {
			t.Errorf("%s: keepNew = %v", c.name, got)
		}
	}
}

// TestRestartedPeerReplacesStaleConnection: a peer killed without a
// goodbye (its socket closed under it, as kill -9 does) leaves its old
// connection registered at the other end until QUIC's idle timeout (6 s).
// Restarted with the same key and address, it dials in; the stale
// connection was dialled by the smaller ID in the other direction, so
// without the incarnation in Hello the newcomer would be refused as a
// duplicate. It must instead replace the stale connection at once and
// gossip.
func TestRestartedPeerReplacesStaleConnection(t *testing.T) {
	quiet := func(c *Config) { c.DialInterval = time.Hour; c.PexInterval = time.Hour }
	ka, kb := mustKey(t), mustKey(t)
	if ida, idb := IDFromKey(ka), IDFromKey(kb); bytes.Compare(idb[:], ida[:]) > 0 {
		ka, kb = kb, ka // b must have the smaller ID
	}
	a := startHost(t, func(c *Config) { quiet(c); c.Key = ka })
	var blog lockedBuffer
	b := startHost(t, func(c *Config) {
		quiet(c)
		c.Key = kb
		c.Logger = slog.New(slog.NewTextHandler(&blog, nil))
	})
	addr := a.Addr()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if err := b.Connect(ctx, a.ID().String()+"@"+addr); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 2*time.Second, "first connection", func() bool { return hasPeer(a, b.ID()) && hasPeer(b, a.ID()) })

	// kill -9: the socket goes first, so no CONNECTION_CLOSE reaches b.
	a.udp.Close()
	a.Close()
	time.Sleep(100 * time.Millisecond)
	if !hasPeer(b, a.ID()) {
		t.Fatal("b noticed the kill: the test needs a stale connection")
	}

	a2 := startHost(t, func(c *Config) { quiet(c); c.Key = ka; c.ListenAddr = addr })
	if a2.inc == a.inc {
		t.Fatal("restarted host kept its incarnation")
	}
	atA2, atB := a2.Subscribe(TopicTx), b.Subscribe(TopicTx)
	if err := a2.Connect(ctx, b.ID().String()+"@"+b.Addr()); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 2*time.Second, "b holds the new connection", func() bool {
		for _, p := range b.Peers() {
			if p.ID == a2.ID() && p.Inbound {
				return true
			}
		}
		return false
	})
	if err := a2.Publish(TopicTx, []byte("from the restarted peer")); err != nil {
		t.Fatal(err)
	}
	if m := recv(t, atB, 2*time.Second); string(m.Payload) != "from the restarted peer" {
		t.Fatalf("b got %q", m.Payload)
	}
	if err := b.Publish(TopicTx, []byte("back")); err != nil {
		t.Fatal(err)
	}
	if m := recv(t, atA2, 2*time.Second); string(m.Payload) != "back" {
		t.Fatalf("a2 got %q", m.Payload)
	}
	// Replaced on the new incarnation, not dropped by the idle timeout
	// (checked by what b did, not by how long it took).
	if !strings.Contains(blog.String(), "p2p peer restarted; old connection replaced") {
		t.Fatalf("b did not replace the stale connection on the new incarnation; its log:\n%s", blog.String())
	}
	if n := len(b.Peers()); n != 1 {
		t.Fatalf("b has %d peers", n)
	}
}

// TestHoldRelay: on a HoldRelay topic the middle of a line delivers a
// message but forwards it only when told to (Relay); Penalize scores the
// sender down and disconnects it.
func TestHoldRelay(t *testing.T) {
	quiet := func(c *Config) { c.DialInterval = time.Hour; c.PexInterval = time.Hour }
	a := startHost(t, quiet)
	b := startHost(t, func(c *Config) { quiet(c); c.HoldRelay = []Topic{TopicBlock} })
	c := startHost(t, quiet)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if err := b.Connect(ctx, a.Addr()); err != nil {
		t.Fatal(err)
	}
	if err := c.Connect(ctx, b.Addr()); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 2*time.Second, "links up at both ends", func() bool { return hasPeer(a, b.ID()) && hasPeer(b, c.ID()) })
	atB, atC := b.Subscribe(TopicBlock), c.Subscribe(TopicBlock)
	atCtx := c.Subscribe(TopicTx)
	a.Publish(TopicBlock, []byte("checked block"))
	a.Publish(TopicTx, []byte("tx relayed at once"))
	m := recv(t, atB, 2*time.Second)
	if string(m.Payload) != "checked block" {
		t.Fatalf("b got %q", m.Payload)
	}
	recv(t, atCtx, 2*time.Second) // other topics still relay on receipt
	// b got the block before it published this, so a relay on receipt
	// would reach c ahead of it.
	if err := b.Publish(TopicBlock, []byte("b's own block")); err != nil {
		t.Fatal(err)
	}
	if early := beforeMarker(t, atC, "b's own block", 10*time.Second); len(early) != 0 {
		t.Fatalf("held block relayed before Relay: %q", early[0].Payload)
	}
	if err := b.Relay(m); err != nil {
		t.Fatal(err)
	}
	if got := recv(t, atC, 2*time.Second); string(got.Payload) != "checked block" || got.From != b.ID() {
		t.Fatalf("c got %q from %s", got.Payload, got.From)
	}
	if err := b.Relay(Message{Topic: TopicBlock, Payload: []byte("x"), Direct: true}); err == nil {
		t.Fatal("relayed a direct message")
	}

	b.Penalize(a.ID(), errors.New("bad certificate"))
	waitFor(t, 2*time.Second, "a disconnected", func() bool { return !hasPeer(b, a.ID()) })
	if got := b.scores.score(a.ID(), time.Now()); got != -penaltyInvalid {
		t.Fatalf("score %d, want %d", got, -penaltyInvalid)
	}
	if !hasPeer(b, c.ID()) || b.Stats().Violations != 1 {
		t.Fatalf("c connected %v, violations %d", hasPeer(b, c.ID()), b.Stats().Violations)
	}
}
