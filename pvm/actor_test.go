package pvm

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"math/big"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/pvm/cbor"
	"github.com/cowboy-chain/cowboy/pvm/meter"
)

// memHost is an in-memory Host for testing the PVM side of actors.
type memHost struct {
	store     map[string][]byte
	sent      []Message
	events    []Event
	ctx       MessageContext
	timers    []TimerRequest
	cancelled []uint64
}

func newMemHost() *memHost {
	return &memHost{store: map[string][]byte{}, ctx: MessageContext{Self: Address{0xac}, Sender: Address{0x5e}, Value: big.NewInt(7), Depth: 1}}
}

func (h *memHost) StorageGet(ns byte, key []byte) ([]byte, bool, error) {
	v, ok := h.store[string(ns)+string(key)]
	return v, ok, nil
}
func (h *memHost) StorageSet(ns byte, key, value []byte) error {
	h.store[string(ns)+string(key)] = value
	return nil
}
func (h *memHost) StorageDelete(ns byte, key []byte) error {
	delete(h.store, string(ns)+string(key))
	return nil
}
func (h *memHost) Send(m Message) ([32]byte, error) {
	h.sent = append(h.sent, m)
	return [32]byte{byte(len(h.sent))}, nil
}
func (h *memHost) Emit(ev Event) error { h.events = append(h.events, ev); return nil }
func (h *memHost) Transfer(Address, *big.Int) error {
	return &HostError{Type: "ValueError", Msg: "no money"}
}
func (h *memHost) Balance(Address) (*big.Int, error) { return big.NewInt(1000), nil }
func (h *memHost) Context() MessageContext           { return h.ctx }
func (h *memHost) SetTimer(t TimerRequest) (uint64, error) {
	if t.Height <= h.Block().Height {
		return 0, &HostError{Type: "ValueError", Msg: "height is not in the future"}
	}
	h.timers = append(h.timers, t)
	return uint64(len(h.timers)), nil
}
func (h *memHost) CancelTimer(id uint64) (*big.Int, error) {
	h.cancelled = append(h.cancelled, id)
	return big.NewInt(int64(id) * 10), nil
}
func (h *memHost) Block() BlockInfo {
	return BlockInfo{Height: 9, Timestamp: 99, ChainID: 7777, Beacon: [32]byte{7}}
}

func callActor(t *testing.T, h *memHost, src, method string, args ...any) (any, Result, error) {
	t.Helper()
	p, err := CheckActor([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var a []byte
	if args != nil {
		if a, err = cbor.EncodeGo(args); err != nil {
			t.Fatal(err)
		}
	}
	ret, res, err := p.Run(Config{CyclesLimit: 10_000_000, CellsLimit: 1_000_000, Host: h}, Call{Method: method, Args: a})
	if err != nil || ret == nil {
		return nil, res, err
	}
	v, derr := cbor.DecodeGo(ret)
	if derr != nil {
		t.Fatal(derr)
	}
	return v, res, nil
}

const hostActor = `
import pvm_host
class Actor:
    def hash(self, name, n):
        data = b"x" * n
        return getattr(pvm_host, name)(data)
    def build2(self, name, n):
        data = b"x" * n
        return getattr(pvm_host, "context")
    def event(self, n):
        pvm_host.emit_event("E", b"y" * n)
    def build(self, n):
        data = b"y" * n
    def rand(self, label):
        return pvm_host.randomness(label)
    def verify(self, digest, sig, addr):
        return pvm_host.verify_signature(digest, sig, addr)
    def send(self, to, n):
        return pvm_host.send_message(to, "m", (b"z" * n,), 5)
    def ctx(self):
        c = pvm_host.context()
        return [c["sender"], c["value"], c["depth"], pvm_host.get_block_info()["height"]]
    def pay(self):
        try:
            pvm_host.transfer("0x" + "00" * 20, 1)
        except ValueError as e:
            return str(e)
`

// The hashes are the chain's, and cost §17.3's 100 cycles + 1 per byte,
// except keccak256: 100 + CIP-3's 6 per 32-byte word, a partial word
// counting whole (docs/decisions.md "CIP-3 leftovers").
func TestHostHashes(t *testing.T) {
	tests := []struct {
		name string
		f    func([]byte) [32]byte
		n    int64
		more uint64 // cycles above hashing 0 bytes
	}{
		{"keccak256", func(b []byte) [32]byte { return crypto.Keccak256(b) }, 1000, 6 * 32},
		{"keccak256", func(b []byte) [32]byte { return crypto.Keccak256(b) }, 32, 6},
		{"keccak256", func(b []byte) [32]byte { return crypto.Keccak256(b) }, 33, 12},
		{"keccak256", func(b []byte) [32]byte { return crypto.Keccak256(b) }, 1, 6},
		{"blake3", func(b []byte) [32]byte { return crypto.Blake3(b) }, 1000, 1000},
		{"sha256", sha256.Sum256, 1000, 1000},
		{"sha256", sha256.Sum256, 33, 33},
	}
	for _, tt := range tests {
		got, r0, err := callActor(t, newMemHost(), hostActor, "hash", tt.name, int64(0))
		if err != nil {
			t.Fatal(err)
		}
		d := tt.f(nil)
		if hex.EncodeToString(got.([]byte)) != hex.EncodeToString(d[:]) {
			t.Fatalf("%s mismatch", tt.name)
		}
		_, r1, _ := callActor(t, newMemHost(), hostActor, "hash", tt.name, tt.n)
		_, b0, _ := callActor(t, newMemHost(), hostActor, "build2", tt.name, int64(0))
		_, b1, _ := callActor(t, newMemHost(), hostActor, "build2", tt.name, tt.n)
		// Hashing n more bytes costs this many more cycles than building them does.
		if diff := (r1.CyclesUsed - r0.CyclesUsed) - (b1.CyclesUsed - b0.CyclesUsed); diff != tt.more {
			t.Errorf("%s: %d more bytes cost %d more cycles, want %d", tt.name, tt.n, diff, tt.more)
		}
	}
}

// randomness(label) is HKDF(R_n, label) over the block's beacon (§3.4),
// priced as a hash of the label; a label that is not bytes is a TypeError.
func TestHostRandomness(t *testing.T) {
	for _, label := range []string{"", "lottery", "dice"} {
		got, _, err := callActor(t, newMemHost(), hostActor, "rand", []byte(label))
		if err != nil {
			t.Fatal(err)
		}
		want := crypto.Randomness([32]byte{7}, []byte(label))
		if hex.EncodeToString(got.([]byte)) != hex.EncodeToString(want[:]) {
			t.Fatalf("randomness(%q) = %x, want %x", label, got, want)
		}
	}
	if _, _, err := callActor(t, newMemHost(), hostActor, "rand", int64(5)); err == nil || !strings.Contains(err.Error(), "TypeError") {
		t.Fatalf("randomness(5): %v", err)
	}
}

// emit_event costs 500 cycles + 5 per byte and a cell per 2 bytes.
func TestHostEventCost(t *testing.T) {
	h := newMemHost()
	_, r0, err := callActor(t, h, hostActor, "event", int64(0))
	if err != nil {
		t.Fatal(err)
	}
	_, r1, _ := callActor(t, newMemHost(), hostActor, "event", int64(100))
	_, b0, _ := callActor(t, newMemHost(), hostActor, "build", int64(0))
	_, b1, _ := callActor(t, newMemHost(), hostActor, "build", int64(100))
	// The event's data grows from CBOR 0x40 (1 byte) to 0x5864 + 100 bytes
	// (102): 101 more bytes at 5 cycles each (§17.3) plus 1 each to
	// serialise them (CIP-3: 20 + bytes), and cells from ceil(2/2) to
	// ceil(103/2).
	if diff := (r1.CyclesUsed - r0.CyclesUsed) - (b1.CyclesUsed - b0.CyclesUsed); diff != 6*101 {
		t.Fatalf("100 more bytes of event data cost %d more cycles, want %d", diff, 6*101)
	}
	if got := r1.CellsUsed - r0.CellsUsed; got != 52-1 {
		t.Fatalf("cells grew by %d, want 51", got)
	}
	if len(h.events) != 1 || h.events[0].Name != "E" {
		t.Fatalf("events %+v", h.events)
	}
}

func TestHostVerifySignature(t *testing.T) {
	key, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	digest := crypto.Keccak256([]byte("hello"))
	y, r, s := key.Sign(digest)
	sig := append(append(append([]byte{}, r[:]...), s[:]...), y)
	addr := crypto.ChecksumAddress(key.Address())
	other := crypto.Keccak256([]byte("other"))
	for _, tc := range []struct {
		digest []byte
		sig    []byte
		addr   string
		want   bool
	}{
		{digest[:], sig, addr, true},
		{digest[:], sig, strings.ToLower(addr), true},
		{other[:], sig, addr, false},
		{digest[:], sig, crypto.ChecksumAddress([20]byte{1}), false},
		{digest[:], append(append([]byte{}, sig[:64]...), 7), addr, false},
	} {
		got, _, err := callActor(t, newMemHost(), hostActor, "verify", tc.digest, tc.sig, tc.addr)
		if err != nil || got != tc.want {
			t.Fatalf("verify = %v, %v; want %v", got, err, tc.want)
		}
	}
	if _, _, err := callActor(t, newMemHost(), hostActor, "verify", []byte{1}, sig, addr); err == nil || !strings.Contains(err.Error(), "32-byte digest") {
		t.Fatalf("short digest: %v", err)
	}
}

func TestHostSendContextTransfer(t *testing.T) {
	h := newMemHost()
	to := crypto.ChecksumAddress([20]byte{9})
	id, _, err := callActor(t, h, hostActor, "send", to, int64(3))
	if err != nil {
		t.Fatal(err)
	}
	if len(h.sent) != 1 || h.sent[0].Method != "m" || h.sent[0].Value.Int64() != 5 || len(id.([]byte)) != 32 {
		t.Fatalf("sent %+v id %v", h.sent, id)
	}
	args, _ := cbor.DecodeGo(h.sent[0].Payload)
	if l, ok := args.([]any); !ok || len(l) != 1 || string(l[0].([]byte)) != "zzz" {
		t.Fatalf("payload %v", args)
	}
	got, _, err := callActor(t, h, hostActor, "ctx")
	if err != nil {
		t.Fatal(err)
	}
	l := got.([]any)
	if l[0] != crypto.ChecksumAddress([20]byte{0x5e}) || l[1] != int64(7) || l[2] != int64(1) || l[3] != int64(9) {
		t.Fatalf("context %v", l)
	}
	got, _, _ = callActor(t, h, hostActor, "pay")
	if got != "no money" {
		t.Fatalf("host refusal as exception: %v", got)
	}
}

// A plain actor's attributes round-trip through NSAttrs, and an unchanged
// state is not written again.
func TestAttributesPersist(t *testing.T) {
	h := newMemHost()
	src := "class Actor:\n    def __init__(self, n):\n        self.n = n\n        self.tags = {'a': [1, 2]}\n    def bump(self):\n        self.n += 1\n        return self.n\n    def peek(self):\n        return self.tags\n"
	p, err := CheckActor([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := cbor.EncodeGo([]any{int64(41)})
	if _, _, err := p.Run(Config{CyclesLimit: 1e6, CellsLimit: 1e5, Host: h}, Call{Deploy: true, Args: a}); err != nil {
		t.Fatal(err)
	}
	got, _, err := callActor(t, h, src, "bump")
	if err != nil || got != int64(42) {
		t.Fatalf("bump = %v %v", got, err)
	}
	before := string(h.store[string(NSAttrs)+"__dict__"])
	h.store[string(NSAttrs)+"__dict__"] = []byte(before) // same bytes
	_, r, _ := callActor(t, h, src, "peek")
	_, r2, _ := callActor(t, h, src, "peek")
	if r.CellsUsed != r2.CellsUsed || r.CellsUsed > 10 {
		t.Fatalf("an unchanged state was written again: %d cells", r.CellsUsed)
	}
}

const storageCostActor = `
import pvm_host
class Actor:
    def put(self, n):
        v = b"v" * n
        pvm_host.storage_set(b"key", v)
    def build(self, n):
        v = b"v" * n
        v
    def get(self):
        return len(pvm_host.storage_get(b"key"))
    def send(self, n):
        v = b"v" * n
        pvm_host.send_message("0x" + "11" * 20, "m", (v,))
`

// §17.3/§17.4: storage_write is 200 cycles + 1 cell per byte of key and
// value; storage_read 10 cycles + ceil(bytes/100) cells; send_message 500
// cycles + 1 cell per payload byte. Each charge is measured against the same
// method without the host call, so only the host's own price remains.
func TestHostStorageAndSendCosts(t *testing.T) {
	h := newMemHost()
	_, put, err := callActor(t, h, storageCostActor, "put", int64(250))
	if err != nil {
		t.Fatal(err)
	}
	_, base, _ := callActor(t, newMemHost(), storageCostActor, "build", int64(250))
	// put and build differ by the host call: LOAD of pvm_host.storage_set,
	// the key constant and the call itself are the same shape as build's
	// bare expression statement plus a method call, so compare cells (which
	// only the host charges) exactly and cycles by the host's share.
	if got, want := put.CellsUsed-base.CellsUsed, uint64(3+250); got != want {
		t.Fatalf("storage_set of 3+250 bytes charged %d cells, want %d", got, want)
	}
	if put.CyclesUsed-base.CyclesUsed < 200 {
		t.Fatalf("storage_set cost %d cycles, want at least 200", put.CyclesUsed-base.CyclesUsed)
	}
	_, get, err := callActor(t, h, storageCostActor, "get")
	if err != nil {
		t.Fatal(err)
	}
	// ceil((3 + 250) / 100) = 3 cells for the read, plus 1 for reading the
	// (absent) attribute record "__dict__" before the method runs, plus 2
	// for the return value 250 (CBOR 0x18 0xfa, CIP-3 §2.2.2 return data).
	if get.CellsUsed != 3+1+2 {
		t.Fatalf("storage_get of 253 bytes charged %d cells, want ceil(253/100) = 3 plus 1 plus 2", get.CellsUsed)
	}
	// A write's cycles do not grow with its size: only its cells do.
	_, put0, _ := callActor(t, newMemHost(), storageCostActor, "put", int64(0))
	_, base0, _ := callActor(t, newMemHost(), storageCostActor, "build", int64(0))
	if (put.CyclesUsed - put0.CyclesUsed) != (base.CyclesUsed - base0.CyclesUsed) {
		t.Fatalf("storage_set cycles grow with the value: %d vs %d", put.CyclesUsed-put0.CyclesUsed, base.CyclesUsed-base0.CyclesUsed)
	}
	_, s0, err := callActor(t, newMemHost(), storageCostActor, "send", int64(0))
	if err != nil {
		t.Fatal(err)
	}
	_, s1, _ := callActor(t, newMemHost(), storageCostActor, "send", int64(100))
	// The payload [b"v"*n] grows from 2 to 103 bytes: 101 more cells.
	if got := s1.CellsUsed - s0.CellsUsed; got != 101 {
		t.Fatalf("100 more payload bytes charged %d more cells, want 101", got)
	}
}

const returner = `
class Actor:
    def give(self, n):
        return b"r" * n
    def nothing(self):
        pass
`

// CIP-3 §2.2.2 "Return Data": after a handler returns, the bytes of its
// canonical CBOR return value are charged as cells, and a return value
// bigger than the cells left fails the call with Out of Cells.
func TestReturnDataIsChargedAsCells(t *testing.T) {
	p, err := CheckActor([]byte(returner))
	if err != nil {
		t.Fatal(err)
	}
	run := func(cells uint64, method string, a ...any) ([]byte, Result, error) {
		b, err := cbor.EncodeGo(a)
		if err != nil {
			t.Fatal(err)
		}
		return p.Run(Config{CyclesLimit: 10_000_000, CellsLimit: cells, Host: newMemHost()}, Call{Method: method, Args: b})
	}
	tests := []struct {
		method string
		args   []any
		ret    uint64 // bytes of the return value's CBOR
	}{
		{"nothing", []any{}, 1},                    // None: 0xf6
		{"give", []any{int64(0)}, 1},               // b"": 0x40
		{"give", []any{int64(23)}, 24},             // one header byte
		{"give", []any{int64(1000)}, 3 + 1000},     // 0x59 + 2 length bytes
		{"give", []any{int64(70_000)}, 5 + 70_000}, // 0x5a + 4 length bytes
	}
	_, base, err := run(1_000_000, "nothing")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		ret, res, err := run(1_000_000, tt.method, tt.args...)
		if err != nil {
			t.Fatalf("%s%v: %v", tt.method, tt.args, err)
		}
		if uint64(len(ret)) != tt.ret {
			t.Fatalf("%s%v returned %d bytes, want %d", tt.method, tt.args, len(ret), tt.ret)
		}
		// The bytes object itself is not cells (only memory), so the
		// difference from a None return is the return value's size.
		if got := res.CellsUsed - base.CellsUsed + 1; got != tt.ret {
			t.Errorf("%s%v: %d cells for a %d-byte return value", tt.method, tt.args, got, tt.ret)
		}
		// One cell short of the return value: Out of Cells.
		if _, _, err := run(res.CellsUsed-1, tt.method, tt.args...); !errors.Is(err, meter.ErrOutOfCells) {
			t.Errorf("%s%v with one cell too few: %v", tt.method, tt.args, err)
		}
	}
}

// TestActorsDocListsWhitelist keeps docs/actors.md's table of importable
// modules equal to the whitelist an actor gets: a module added to the
// code without a row, or a row for a module that is gone, fails.
func TestActorsDocListsWhitelist(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "actors.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	start := strings.Index(text, "## The Python an actor can import")
	if start < 0 {
		t.Fatal(`docs/actors.md has no "## The Python an actor can import" section`)
	}
	section := text[start:]
	if end := strings.Index(section[3:], "\n## "); end >= 0 {
		section = section[:end+3]
	}
	var listed []string
	for _, line := range strings.Split(section, "\n") {
		if strings.HasPrefix(line, "| `") {
			name := strings.TrimPrefix(line, "| `")
			listed = append(listed, name[:strings.Index(name, "`")])
		}
	}
	var want []string
	for _, n := range actorModuleNames() {
		if !strings.HasPrefix(n, "_") || n == "__future__" {
			want = append(want, n) // _itertools is itertools' core, not for import
		}
	}
	sort.Strings(listed)
	sort.Strings(want)
	if strings.Join(listed, " ") != strings.Join(want, " ") {
		t.Errorf("docs/actors.md lists\n  %v\nthe actor whitelist is\n  %v", listed, want)
	}
}
