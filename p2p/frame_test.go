package p2p

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"testing"
	"time"
)

func sampleFrames() []*frame {
	return []*frame{
		{kind: kindHello, hello: hello{Version: 1, ChainID: 7, GenesisHash: [32]byte{9}, NodeID: PeerID{1, 2}, Height: 42, Incarnation: [8]byte{0xde, 0xad, 0, 0, 0, 0, 0, 0xef}, ListenAddr: "127.0.0.1:26656"}},
		{kind: kindHello, hello: hello{Version: 1}},
		{kind: kindPexRequest},
		{kind: kindPexResponse, peers: []peerAddr{}},
		{kind: kindPexResponse, peers: []peerAddr{{ID: PeerID{3}, Addr: "10.0.0.1:1"}, {ID: PeerID{4}, Addr: "[::1]:2"}}},
		{kind: kindGossip, topic: TopicTx, payload: []byte("tx")},
		{kind: kindGossip, topic: TopicBlock, payload: []byte{}},
		{kind: kindDirect, topic: TopicVote, payload: []byte("vote")},
		{kind: kindDirect, topic: TopicConsensus, payload: bytes.Repeat([]byte{7}, 1000)},
		{kind: kindRecord, record: record{Addr: "127.0.0.1:9", Seq: 5, Sig: [recordSigLen]byte{1, 2, 3}}},
		{kind: kindNodes, nodes: []nodeEntry{{Rec: record{ID: PeerID{5}, Addr: "0.0.0.0:9"}, Observed: "10.0.0.1:9"}, {Rec: record{ID: PeerID{6}}}}},
	}
}

func TestFrameRoundTrip(t *testing.T) {
	lim := DefaultLimits()
	for _, f := range sampleFrames() {
		b := encodeFrame(f)
		got, err := readFrame(bytes.NewReader(b), &lim, nil)
		if err != nil {
			t.Fatalf("%s: %v", frameName(f.kind, f.topic), err)
		}
		if again := encodeFrame(got); !bytes.Equal(again, b) {
			t.Fatalf("%s: re-encoding differs:\n%x\n%x", frameName(f.kind, f.topic), again, b)
		}
	}
}

// TestFrameGolden pins the byte layout documented in doc.go.
func TestFrameGolden(t *testing.T) {
	got := encodeFrame(&frame{kind: kindGossip, topic: TopicTx, payload: []byte{0xaa, 0xbb}})
	want := []byte{4, 1, 0, 0, 0, 2, 0xaa, 0xbb}
	if !bytes.Equal(got, want) {
		t.Fatalf("gossip frame %x, want %x", got, want)
	}
	got = encodeFrame(&frame{kind: kindPexResponse, peers: []peerAddr{{ID: PeerID{0xee}, Addr: "1.2.3.4:5"}}})
	want = append([]byte{3, 0, 0, 0, 0, 31, 1, 0xee}, make([]byte, 19)...)
	want = append(append(want, 9), "1.2.3.4:5"...)
	if !bytes.Equal(got, want) {
		t.Fatalf("pex frame %x, want %x", got, want)
	}
	if n := len(encodeFrame(&frame{kind: kindHello, hello: hello{ListenAddr: string(make([]byte, maxAddrLen))}})); n != headerLen+maxHelloLen || maxHelloLen != 334 {
		t.Fatalf("max hello %d", n)
	}
	// Hello: the incarnation sits between the height and the address.
	got = encodeFrame(&frame{kind: kindHello, hello: hello{Version: 2, ChainID: 7, Height: 9,
		Incarnation: [8]byte{1, 2, 3, 4, 5, 6, 7, 8}, ListenAddr: "1.2.3.4:5"}})
	want = []byte{1, 0, 0, 0, 0, byte(helloFixedLen + 9), 0, 2, 0, 0, 0, 0, 0, 0, 0, 7}
	want = append(want, make([]byte, 32+20)...)
	want = append(want, 0, 0, 0, 0, 0, 0, 0, 9, 1, 2, 3, 4, 5, 6, 7, 8, 9)
	want = append(want, "1.2.3.4:5"...)
	if !bytes.Equal(got, want) {
		t.Fatalf("hello frame\n%x, want\n%x", got, want)
	}
	if maxPexRespLen != 8833 {
		t.Fatalf("max pex response %d (doc.go says 8,833)", maxPexRespLen)
	}
}

func header(k kind, t Topic, n uint32) []byte {
	b := []byte{byte(k), byte(t), 0, 0, 0, 0}
	binary.BigEndian.PutUint32(b[2:], n)
	return b
}

func TestFrameRejects(t *testing.T) {
	lim := DefaultLimits().withDefaults()
	cases := []struct {
		name string
		in   []byte
		want error
	}{
		{"unknown kind", header(9, 0, 0), ErrBadFrame},
		{"kind zero", header(0, 0, 0), ErrBadFrame},
		{"gossip without topic", header(kindGossip, 0, 1), ErrBadFrame},
		{"gossip unknown topic", header(kindGossip, 5, 1), ErrBadFrame},
		{"hello with topic", header(kindHello, 1, 0), ErrBadFrame},
		{"oversized tx", header(kindGossip, TopicTx, uint32(lim.MaxTxBytes)+1), ErrFrameTooLarge},
		{"oversized vote", header(kindDirect, TopicVote, uint32(lim.MaxVoteBytes)+1), ErrFrameTooLarge},
		{"huge length", header(kindGossip, TopicBlock, 0xffffffff), ErrFrameTooLarge},
		{"pex request body", header(kindPexRequest, 0, 1), ErrFrameTooLarge},
		{"short hello", append(header(kindHello, 0, 3), 1, 2, 3), ErrBadFrame},
		{"hello trailing", append(header(kindHello, 0, helloFixedLen+1), make([]byte, helloFixedLen+1)...), ErrBadFrame},
		{"pex too many", append(header(kindPexResponse, 0, 1), 33), ErrBadFrame},
		{"pex truncated", append(header(kindPexResponse, 0, 2), 1, 0), ErrBadFrame},
		{"pex trailing", append(header(kindPexResponse, 0, 2), 0, 0), ErrBadFrame},
		{"pex empty body", header(kindPexResponse, 0, 0), ErrBadFrame},
		{"truncated body", append(header(kindGossip, TopicTx, 10), 1, 2), io.ErrUnexpectedEOF},
		{"truncated header", []byte{4, 1, 0}, io.ErrUnexpectedEOF},
	}
	for _, c := range cases {
		_, err := readFrame(bytes.NewReader(c.in), &lim, nil)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, err, c.want)
		}
	}
}

// TestFrameCapBeforeBody checks that an oversized header is refused
// without reading (or waiting for) its body.
func TestFrameCapBeforeBody(t *testing.T) {
	lim := DefaultLimits()
	r := io.MultiReader(bytes.NewReader(header(kindGossip, TopicBlock, 1<<30)), blockingReader{})
	done := make(chan error, 1)
	go func() { _, err := readFrame(r, &lim, nil); done <- err }()
	select {
	case err := <-done:
		if !errors.Is(err, ErrFrameTooLarge) {
			t.Fatal(err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("readFrame read past an oversized header")
	}
}

type blockingReader struct{}

func (blockingReader) Read([]byte) (int, error) { select {} }

func TestTokenBucket(t *testing.T) {
	now := time.Unix(0, 0)
	b := newTokenBucket(10, 5, now)
	for i := range 5 {
		if !b.take(1, now) {
			t.Fatalf("take %d within burst refused", i)
		}
	}
	if b.take(1, now) {
		t.Fatal("take past burst allowed")
	}
	if !b.take(1, now.Add(100*time.Millisecond)) || b.take(1, now.Add(100*time.Millisecond)) {
		t.Fatal("refill of 10/s over 100 ms should allow exactly one")
	}
	if !b.take(5, now.Add(time.Hour)) || b.take(1, now.Add(time.Hour)) {
		t.Fatal("refill must stop at the burst")
	}
}

func TestSeenCache(t *testing.T) {
	c := newSeenCache(3)
	ids := []MsgID{{1}, {2}, {3}, {4}}
	for _, id := range ids[:3] {
		if !c.add(id) {
			t.Fatal("new id reported seen")
		}
	}
	if c.add(ids[0]) { // refreshes 1; 2 is now the oldest
		t.Fatal("duplicate reported new")
	}
	c.add(ids[3]) // evicts 2
	if !c.add(ids[1]) {
		t.Fatal("evicted id still remembered")
	}
	if c.order.Len() != 3 || len(c.index) != 3 {
		t.Fatalf("cache size %d/%d, cap 3", c.order.Len(), len(c.index))
	}
}

func TestScoreboardBan(t *testing.T) {
	lim := DefaultLimits()
	s := newScoreboard(&lim)
	now := time.Unix(1000, 0)
	id := PeerID{1}
	if s.penalize(id, 40, now) || s.penalize(id, 40, now) {
		t.Fatal("banned below the threshold")
	}
	if s.score(id, now) != -80 {
		t.Fatalf("score %d", s.score(id, now))
	}
	if !s.penalize(id, 40, now) || !s.banned(id, now.Add(lim.BanDuration-time.Second)) {
		t.Fatal("not banned at the threshold")
	}
	if s.banned(id, now.Add(lim.BanDuration)) {
		t.Fatal("ban outlived BanDuration")
	}
	// Recovery: 1 point a minute toward 0, then pruned.
	later := now.Add(lim.BanDuration + 2*time.Hour)
	if s.score(id, later) != 0 {
		t.Fatalf("score did not recover: %d", s.score(id, later))
	}
	s.prune(later)
	if len(s.entries) != 0 {
		t.Fatal("recovered entry not pruned")
	}
}

// FuzzDecodeFrame: no input panics the decoder, and whatever it accepts is
// the canonical encoding of what it decoded, within the caps.
func FuzzDecodeFrame(f *testing.F) {
	for _, fr := range sampleFrames() {
		f.Add(encodeFrame(fr))
	}
	f.Add(header(kindGossip, TopicBlock, 0xffffffff))
	f.Add(append(header(kindPexResponse, 0, 3), 1, 0, 0))
	f.Add([]byte{})
	f.Add([]byte("garbage bytes from nowhere"))
	lim := DefaultLimits()
	lim.MaxBlockBytes, lim.MaxConsensusBytes = 1<<16, 1<<16 // keep fuzz inputs small
	f.Fuzz(func(t *testing.T, data []byte) {
		r := bytes.NewReader(data)
		fr, err := readFrame(r, &lim, nil)
		if err != nil {
			if fr != nil {
				t.Fatal("frame returned with an error")
			}
			return
		}
		used := data[:len(data)-r.Len()]
		if enc := encodeFrame(fr); !bytes.Equal(enc, used) {
			t.Fatalf("accepted non-canonical frame:\n in  %x\n out %x", used, enc)
		}
		if n := len(used) - headerLen; n > lim.maxBody(fr.kind, fr.topic) {
			t.Fatalf("body %d over cap", n)
		}
	})
}
