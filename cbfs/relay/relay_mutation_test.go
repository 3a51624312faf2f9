package relay

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/cbfs"
)

// TestPrefixEnd checks the exclusive upper bound of a key prefix that
// dropVolume deletes up to: the last byte below 0xff raised by one and
// the 0xff bytes after it cut, or no bound when every byte is 0xff.
func TestPrefixEnd(t *testing.T) {
	for _, tc := range []struct {
		p, want []byte
	}{
		{[]byte{1, 2}, []byte{1, 3}},
		{[]byte{1, 0xff}, []byte{2}},
		{[]byte{1, 0xfe, 0xff, 0xff}, []byte{1, 0xff}},
		{[]byte{0xfe}, []byte{0xff}},
		{[]byte{0xff, 0xff}, nil},
	} {
		if got := prefixEnd(tc.p); !bytes.Equal(got, tc.want) || (got == nil) != (tc.want == nil) {
			t.Errorf("prefixEnd(%x) = %x, want %x", tc.p, got, tc.want)
		}
	}
}

// TestFrameCapsAtTheirEdges checks readFrameInto accepts a header of
// exactly MaxHeaderBytes and data of exactly the kind's cap, and refuses
// one byte more of either with ErrBadFrame.
func TestFrameCapsAtTheirEdges(t *testing.T) {
	const dataCap = 10
	frame := func(hdrLen, dataLen int) []byte {
		var b bytes.Buffer
		b.WriteByte(7)
		binary.Write(&b, binary.BigEndian, uint32(hdrLen))
		b.Write(make([]byte, hdrLen))
		binary.Write(&b, binary.BigEndian, uint32(dataLen))
		b.Write(bytes.Repeat([]byte{0xab}, dataLen))
		return b.Bytes()
	}
	for _, tc := range []struct {
		name            string
		hdrLen, dataLen int
		ok              bool
	}{
		{"header and data at their caps", MaxHeaderBytes, dataCap, true},
		{"header one past its cap", MaxHeaderBytes + 1, 0, false},
		{"data one past its cap", 0, dataCap + 1, false},
	} {
		kind, hdr, data, err := readFrameInto(bytes.NewReader(frame(tc.hdrLen, tc.dataLen)), nil, 4, func(uint8) int { return dataCap })
		if !tc.ok {
			if !errors.Is(err, ErrBadFrame) {
				t.Errorf("%s: err = %v, want ErrBadFrame", tc.name, err)
			}
			continue
		}
		if err != nil || kind != 7 || len(hdr) != tc.hdrLen || !bytes.Equal(data, bytes.Repeat([]byte{0xab}, tc.dataLen)) {
			t.Errorf("%s: kind %d, %d header bytes, data %x, err %v", tc.name, kind, len(hdr), data, err)
		}
	}
}

// TestClientChecksRelayIdentity checks the client's TLS check of the
// relay's node key: a client told to expect another relay refuses the
// connection, and one told the right relay learns its proven ID.
func TestClientChecksRelayIdentity(t *testing.T) {
	f := newFixture(t, Limits{})
	ctx := context.Background()
	// Any request connects first; the relay may refuse the empty Auth.
	_, _ = f.cli.Has(ctx, Auth{}, nil)
	if got := f.cli.ID(); got != f.srv.ID() {
		t.Fatalf("client's relay ID %x, want %x", got, f.srv.ID())
	}
	other := f.srv.ID()
	other[0] ^= 1
	cli, err := NewClient(f.srv.Addr(), other, f.owner)
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	if _, err := cli.Has(ctx, Auth{}, nil); err == nil || !strings.Contains(err.Error(), "expected") {
		t.Fatalf("a client expecting another relay: %v", err)
	}
}

// TestHasAnswersPerHash checks Has answers one bool per hash asked, false
// for a shard the relay does not hold.
func TestHasAnswersPerHash(t *testing.T) {
	f := newFixture(t, Limits{})
	got, err := f.cli.Has(context.Background(), f.auth(t, "a.txt"), []cbfs.ShardHash{{1}, {2}})
	if err != nil || len(got) != 2 || got[0] || got[1] {
		t.Fatalf("Has of two unknown shards = %v, %v; want [false false]", got, err)
	}
}
