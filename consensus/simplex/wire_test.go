package simplex

import (
	"bytes"
	"encoding/binary"
	"reflect"
	"testing"
)

// sampleMessages collects every kind of message from a short cluster run.
func sampleMessages(t testing.TB) []Message {
	c := newCluster(t, clusterOpts{stakes: []uint64{1, 1, 1, 1}, seed: 21, timeoutTicks: 5})
	c.manual = true
	c.process()
	c.partition([]int{2})
	var out []Message
	for k := 0; k < 40; k++ {
		for _, e := range c.pending {
			out = append(out, e.msg)
		}
		pend := c.pending
		c.pending = nil
		for _, e := range pend {
			c.deliver(e)
			c.process()
		}
		c.now++
		for _, sn := range c.nodes {
			sn.node.Tick()
		}
		c.process()
		if k == 20 {
			c.heal()
		}
	}
	return out
}

func TestWireRoundTrip(t *testing.T) {
	kinds := map[MsgType]int{}
	for _, m := range sampleMessages(t) {
		kinds[m.Type]++
		b, err := EncodeMessage(m)
		if err != nil {
			t.Fatal(err)
		}
		got, err := DecodeMessage(b, m.To)
		if err != nil {
			t.Fatalf("%v: %v", m, err)
		}
		if !reflect.DeepEqual(normalize(got), normalize(m)) {
			t.Fatalf("round trip changed the message:\n%+v\n%+v", got, m)
		}
		again, _ := EncodeMessage(got)
		if !bytes.Equal(again, b) {
			t.Fatal("re-encoding differs")
		}
	}
	for _, k := range []MsgType{MsgPropose, MsgVote, MsgNewView, MsgFetch, MsgBlock} {
		if kinds[k] == 0 {
			t.Errorf("the sample run produced no %v message", k)
		}
	}
}

// normalize maps empty byte strings to nil, which the wire does not
// distinguish.
func normalize(m Message) Message {
	fix := func(b []byte) []byte {
		if len(b) == 0 {
			return nil
		}
		return b
	}
	var fixQC func(q *QC) *QC
	fixQC = func(q *QC) *QC {
		if q == nil {
			return nil
		}
		c := *q
		c.Signature, c.Signers = fix(c.Signature), Bitmap(fix(c.Signers))
		return &c
	}
	fixBlock := func(b *Block) *Block {
		if b == nil {
			return nil
		}
		c := *b
		c.Payload, c.VRFProof, c.Justify = fix(c.Payload), fix(c.VRFProof), fixQC(c.Justify)
		return &c
	}
	m.Signature = fix(m.Signature)
	m.QC = fixQC(m.QC)
	m.Block = fixBlock(m.Block)
	for i := range m.Blocks {
		m.Blocks[i] = fixBlock(m.Blocks[i])
	}
	if m.TC != nil {
		tc := *m.TC
		tc.Signature, tc.Signers = fix(tc.Signature), Bitmap(fix(tc.Signers))
		m.TC = &tc
	}
	return m
}

func TestWireRefusesNonCanonical(t *testing.T) {
	m := Message{Type: MsgVote, From: 1, Round: 3, Height: 2, Signature: []byte{1, 2}}
	b, err := EncodeMessage(m)
	if err != nil {
		t.Fatal(err)
	}
	// Round 3 re-encoded as a two-byte integer (0x18 0x03) is not canonical.
	long := append([]byte(nil), b[:3]...)
	long = append(long, 0x18, 0x03)
	long = append(long, b[4:]...)
	if _, err := DecodeMessage(long, 0); err == nil {
		t.Error("non-shortest integer accepted")
	}
	bad := append([]byte(nil), b...)
	bad[1] = 9 // unknown type
	if _, err := DecodeMessage(bad, 0); err == nil {
		t.Error("unknown message type accepted")
	}
	if _, err := DecodeMessage(b[:len(b)-1], 0); err == nil {
		t.Error("truncated message accepted")
	}
	if _, err := EncodeMessage(Message{Type: MsgVote, From: -1}); err == nil {
		t.Error("message from no validator encoded")
	}
}

// FuzzDecodeMessage: decoding arbitrary bytes never panics, anything
// accepted is canonical, and a node stepping it does not panic either.
func FuzzDecodeMessage(f *testing.F) {
	for _, m := range sampleMessages(f) {
		b, err := EncodeMessage(m)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	h := newFuzzNode(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := DecodeMessage(data, 0)
		if err != nil {
			return
		}
		again, err := EncodeMessage(m)
		if err != nil || !bytes.Equal(again, data) {
			t.Fatalf("accepted bytes are not canonical: %x", data)
		}
		_ = m.String() // logging a hostile message must not panic either
		_ = h.Step(m)
		h.Ready()
	})
}

func newFuzzNode(t testing.TB) *Node {
	set, schemes := fakeSetup(t, []uint64{1, 1, 1, 1}, 21)
	var seed [32]byte
	binary.BigEndian.PutUint64(seed[:], 21) // the seed sampleMessages' cluster uses
	n, err := NewNode(Config{ID: 0, Validators: set, Scheme: schemes[0], Seed: seed, Genesis: &Block{Payload: []byte("genesis")}})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestStorageEncodingsRoundTrip(t *testing.T) {
	qc := &QC{BlockHash: Hash{1}, Height: 3, Round: 5, Signature: []byte{9, 9}, Signers: Bitmap{0x07}}
	hs := &HardState{Round: 7, LastVoted: 6, Locked: 4, HighQC: qc, LastTC: &TC{Round: 6, Signature: []byte{1}, Signers: Bitmap{0x0b}}}
	enc, err := EncodeHardState(hs)
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodeHardState(enc)
	if err != nil {
		t.Fatal(err)
	}
	if back.Round != 7 || back.LastVoted != 6 || back.Locked != 4 || back.HighQC.Round != 5 || back.LastTC.Round != 6 {
		t.Fatalf("hard state %+v", back)
	}
	b := &Block{Parent: Hash{2}, Height: 4, Round: 6, Proposer: 1, Payload: []byte("x"), VRFProof: []byte{3}, Justify: qc}
	enc, err = EncodeCertified(Certified{Block: b, QC: qc})
	if err != nil {
		t.Fatal(err)
	}
	c, err := DecodeCertified(enc)
	if err != nil {
		t.Fatal(err)
	}
	if c.Block.Hash() != b.Hash() || c.QC.Round != 5 {
		t.Fatalf("certified %+v", c)
	}
	if _, err := DecodeCertified([]byte{0x80}); err == nil {
		t.Fatal("empty array decoded")
	}
}
