package simplex

import (
	"bytes"
	"encoding/hex"
	"reflect"
	"testing"
)

// Fixed wire vectors: the expected bytes were written by hand from the
// layout in wire.go (canonical CBOR arrays in field order), independently of
// the Go codec, so a change to the format that still round-trips fails here.
// An absent signature (nil) is CBOR null.
func TestWireVectors(t *testing.T) {
	fill := func(b byte) (h Hash) {
		for i := range h {
			h[i] = b
		}
		return h
	}
	qc := &QC{BlockHash: fill(0x11), Height: 4, Round: 6, Signature: []byte{9, 9, 9, 9}, Signers: Bitmap{0x0b}, Beacon: []byte{0xbe}}
	block := &Block{Parent: fill(0x22), Height: 5, Round: 7, Proposer: 1, Payload: []byte("pay"), VRFProof: []byte{5, 6}, Justify: qc}
	tests := []struct {
		name string
		msg  Message
		hex  string
	}{
		{"vote", Message{Type: MsgVote, From: 3, Round: 7, Height: 5, BlockHash: fill(0xaa), Signature: []byte{1, 2, 3}, Partials: [][]byte{{1}, {2, 3}}},
			"8c020307055820" + "aa" + "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" + "f6f60043010203f6f6" + "824101420203"},
		{"propose with a block and its justify", Message{Type: MsgPropose, From: 1, Round: 7, Height: 5, BlockHash: fill(0x33), Block: block, Signature: []byte{7}},
			"8c010107055820" + hexRepeat("33", 32) +
				"875820" + hexRepeat("22", 32) + "05070143706179420506" +
				"865820" + hexRepeat("11", 32) + "04064409090909410b41be" +
				"f6004107f6f6f6"},
		{"new view with a qc and a tc", Message{Type: MsgNewView, From: 2, Round: 7, QC: qc, TC: &TC{Round: 6, Signature: []byte{0x0c, 0x0d}, Signers: Bitmap{0x0f}}},
			"8c030207005820" + hexRepeat("00", 32) + "f6f600f6" +
				"865820" + hexRepeat("11", 32) + "04064409090909410b41be" +
				"8306420c0d410ff6"},
		{"block reply, wide integers", Message{Type: MsgBlock, From: 0, Round: 300, Height: 70000, Blocks: []*Block{block}, Count: 1},
			"8c050019012c1a00011170" + "5820" + hexRepeat("00", 32) + "f6" +
				"81875820" + hexRepeat("22", 32) + "05070143706179420506" +
				"865820" + hexRepeat("11", 32) + "04064409090909410b41be" +
				"01f6f6f6f6"},
	}
	for _, tt := range tests {
		want, err := hex.DecodeString(tt.hex)
		if err != nil {
			t.Fatalf("%s: bad vector: %v", tt.name, err)
		}
		got, err := EncodeMessage(tt.msg)
		if err != nil {
			t.Fatalf("%s: encode: %v", tt.name, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: encoded\n%x\nwant\n%x", tt.name, got, want)
		}
		m, err := DecodeMessage(want, 2)
		if err != nil {
			t.Fatalf("%s: decode: %v", tt.name, err)
		}
		tt.msg.To = 2
		if !reflect.DeepEqual(normalize(m), normalize(tt.msg)) {
			t.Errorf("%s: decoded\n%+v\nwant\n%+v", tt.name, m, tt.msg)
		}
	}
}

func hexRepeat(s string, n int) string { return string(bytes.Repeat([]byte(s), n)) }
