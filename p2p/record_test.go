package p2p

import (
	"errors"
	"testing"
	"time"
)

// TestRecordSignature: a record verifies only as its node signed it; any
// changed field, another key's signature or a garbage signature is
// refused as a bad frame.
func TestRecordSignature(t *testing.T) {
	key, other := mustKey(t), mustKey(t)
	good := signRecord(key, "127.0.0.1:9000", 42)
	if err := good.verify(); err != nil {
		t.Fatalf("own record: %v", err)
	}
	mod := func(f func(r *record)) record {
		r := good
		f(&r)
		return r
	}
	for _, tt := range []struct {
		name string
		r    record
	}{
		{"address changed", mod(func(r *record) { r.Addr = "127.0.0.1:9001" })},
		{"sequence changed", mod(func(r *record) { r.Seq++ })},
		{"signature changed", mod(func(r *record) { r.Sig[3] ^= 1 })},
		{"parity changed", mod(func(r *record) { r.Sig[64] ^= 1 })},
		{"zero signature", mod(func(r *record) { r.Sig = [recordSigLen]byte{} })},
		{"garbage signature", mod(func(r *record) {
			for i := range r.Sig {
				r.Sig[i] = 0xff
			}
		})},
		{"another node's ID", mod(func(r *record) { r.ID = IDFromKey(other) })},
		{"signed by another key", mod(func(r *record) { *r = signRecord(other, r.Addr, r.Seq); r.ID = good.ID })},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.r.verify(); !errors.Is(err, ErrBadFrame) {
				t.Fatalf("verify: %v, want a bad frame", err)
			}
			// The cache of verified records knows the good one; a
			// changed copy is still checked.
			var c recordCache
			if err := c.verify(&good); err != nil {
				t.Fatal(err)
			}
			if err := c.verify(&tt.r); !errors.Is(err, ErrBadFrame) {
				t.Fatalf("cached verify: %v, want a bad frame", err)
			}
		})
	}
}

func TestRecordDialAddr(t *testing.T) {
	key := mustKey(t)
	for _, tt := range []struct {
		addr, observed, want string
	}{
		{"127.0.0.1:9000", "10.1.1.1:9000", "127.0.0.1:9000"}, // its own IP wins
		{"0.0.0.0:9000", "10.1.1.1:9000", "10.1.1.1:9000"},    // unspecified: the observed IP
		{"[::]:9000", "10.1.1.1:9000", "10.1.1.1:9000"},
		{"0.0.0.0:9000", "10.1.1.1:9001", ""}, // the port is the record's
		{"0.0.0.0:9000", "", ""},
		{"not an address", "10.1.1.1:9000", ""},
		{"127.0.0.1:0", "", ""},
	} {
		r := signRecord(key, tt.addr, 1)
		if got := r.dialAddr(tt.observed); got != tt.want {
			t.Errorf("record %q observed %q: %q, want %q", tt.addr, tt.observed, got, tt.want)
		}
	}
}

func bookHas(h *Host, addr string) bool {
	h.book.mu.Lock()
	defer h.book.mu.Unlock()
	return h.book.entries[addr] != nil
}

// TestForgedRecordsRefused sends records over the wire from a raw client:
// its own record signed by another key, a Nodes answer carrying a forged
// record, and garbage in a Nodes frame are refused (the sender is
// disconnected and scored down, the address stays out of the book); a
// Nodes answer of correctly signed records is taken.
func TestForgedRecordsRefused(t *testing.T) {
	a := startHost(t, nil)
	third, liar := mustKey(t), mustKey(t)
	forged := signRecord(liar, "127.0.0.1:4001", 1)
	forged.ID = IDFromKey(third) // claims to be third's record
	for _, tt := range []struct {
		name   string
		frame  []byte
		addr   string // must stay out of a's book
		refuse bool
	}{
		{"own record signed by another key", encodeFrame(&frame{kind: kindRecord, record: signRecord(liar, "127.0.0.1:4000", 1)}), "", true},
		{"nodes with a forged record", encodeFrame(&frame{kind: kindNodes, nodes: []nodeEntry{
			{Rec: signRecord(third, "127.0.0.1:4002", 1)}, {Rec: forged}}}), "127.0.0.1:4001", true},
		{"garbage nodes", append(header(kindNodes, 0, 120), append([]byte{1}, make([]byte, 119)...)...), "", true},
		{"signed nodes", encodeFrame(&frame{kind: kindNodes, nodes: []nodeEntry{{Rec: signRecord(third, "127.0.0.1:4003", 1)}}}), "", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			key := mustKey(t)
			c, err := dialRaw(t, a, key)
			if err != nil {
				t.Fatal(err)
			}
			s := c.hello(t, testChainID)
			waitFor(t, 2*time.Second, "raw client registered", func() bool { return hasPeer(a, c.id) })
			if _, err := s.Write(tt.frame); err != nil {
				t.Fatal(err)
			}
			if !tt.refuse {
				waitFor(t, 2*time.Second, "the signed record's address in the book", func() bool { return bookHas(a, "127.0.0.1:4003") })
				if a.scores.score(c.id, time.Now()) != 0 || !hasPeer(a, c.id) {
					t.Fatal("an honest Nodes answer was punished")
				}
				return
			}
			c.waitClosed(t)
			if a.scores.score(c.id, time.Now()) >= 0 {
				t.Fatalf("sender not scored down: %d", a.scores.score(c.id, time.Now()))
			}
			if tt.addr != "" && bookHas(a, tt.addr) {
				t.Fatalf("forged address %s entered the book", tt.addr)
			}
			if bookHas(a, "127.0.0.1:4002") {
				t.Fatal("an answer with a forgery was partly taken")
			}
		})
	}
}
