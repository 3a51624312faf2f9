package storage

import (
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/fxamacker/cbor/v2"

	"github.com/cowboy-chain/cowboy/cbfs"
	"github.com/cowboy-chain/cowboy/chain/types"
)

// TestCallBounds pins the edges of the calls' argument and cycle checks:
// each row is one call on a fresh state with a registered relay addr(2)
// and a volume "v" (k=4, m=2) of addr(1) holding a 1,000-byte file.
func TestCallBounds(t *testing.T) {
	long := func(n int) string { return strings.Repeat("a", n) }
	type ent = []any
	ents := func(n int) []ent {
		out := make([]ent, n)
		for i := range out {
			id := cbfs.VolumeID{0: 0xee, 31: byte(i), 30: byte(i >> 8)} // no such volume: nothing billed
			out[i] = ent{id[:], uint64(1)}
		}
		return out
	}
	vid := cbfs.DeriveVolumeID(addr(1), "v")
	for _, c := range []struct {
		name   string
		to     types.Address
		from   types.Address
		value  *big.Int
		height uint64
		cycles uint64
		method string
		args   []any
		want   string // "" for success
	}{
		{"exactly CallCycles", RegistryAddress, addr(2), nil, 5, CallCycles, "update_relay", []any{"h:1", uint64(5)}, ""},
		{"one cycle short", RegistryAddress, addr(2), nil, 5, CallCycles - 1, "update_relay", []any{"h:1", uint64(5)}, "out of cycles"},
		{"0x0B errors name the relay registry", RegistryAddress, addr(3), nil, 5, 0, "update_relay", []any{"h:1", uint64(5)}, "relay registry update_relay"},
		{"0x0A errors name the storage manager", ManagerAddress, addr(3), nil, 5, 0, "top_up", []any{}, "storage manager top_up"},
		{"k+m = MaxShards", ManagerAddress, addr(3), nil, 5, 0, "create_volume", []any{"w", uint64(cbfs.MaxShards - 2), uint64(2)}, ""},
		{"k+m = MaxShards+1", ManagerAddress, addr(3), nil, 5, 0, "create_volume", []any{"w", uint64(cbfs.MaxShards - 1), uint64(2)}, "k+m ≤"},
		{"k+m over, k−m under", ManagerAddress, addr(3), nil, 5, 0, "create_volume", []any{"w", uint64(cbfs.MaxShards - 4), uint64(10)}, "k+m ≤"},
		{"top_up of 0", ManagerAddress, addr(3), big.NewInt(0), 5, 0, "top_up", []any{vid[:]}, "needs a value"},
		{"an epoch not ended", ManagerAddress, addr(2), nil, 3*BillingEpochBlocks + 7, 0, "attest", []any{uint64(3), ents(1)}, fmt.Sprintf("(height %d is in epoch 3)", 3*BillingEpochBlocks+7)},
		{"no entries", ManagerAddress, addr(2), nil, BillingEpochBlocks, 0, "attest", []any{uint64(0), ents(0)}, "1..256 entries, got 0"},
		{"MaxAttestEntries entries", ManagerAddress, addr(2), nil, BillingEpochBlocks, 0, "attest", []any{uint64(0), ents(MaxAttestEntries)}, ""},
		{"one entry too many", ManagerAddress, addr(2), nil, BillingEpochBlocks, 0, "attest", []any{uint64(0), ents(MaxAttestEntries + 1)}, "got 257"},
		{"a 255-byte addr", RegistryAddress, addr(2), nil, 5, 0, "update_relay", []any{long(255), uint64(5)}, ""},
		{"a 256-byte addr", RegistryAddress, addr(2), nil, 5, 0, "update_relay", []any{long(256), uint64(5)}, "1..255 bytes"},
		{"capacity not a number", RegistryAddress, addr(2), nil, 5, 0, "update_relay", []any{"h:1", "five"}, "capacity: "},
		{"capacity 0", RegistryAddress, addr(2), nil, 5, 0, "update_relay", []any{"h:1", uint64(0)}, "capacity must be positive"},
		{"withdraw before exit", RegistryAddress, addr(2), nil, 5, 0, "withdraw_relay", []any{}, fmt.Sprintf("stake unbonds at height %d (exit first)", UnbondBlocks)},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			e.must(RegistryAddress, addr(2), MinRelayStake, 1, "register_relay", "127.0.0.1:1", uint64(1<<30))
			e.must(ManagerAddress, addr(1), big.NewInt(1e15), 1, "create_volume", "v", uint64(4), uint64(2))
			e.must(ManagerAddress, addr(1), nil, 1, "commit", vid[:], make([]byte, 32), commitment(1000, 4, 2))
			cycles := c.cycles
			if cycles == 0 {
				cycles = 1_000_000
			}
			value := c.value
			if value == nil {
				value = new(big.Int)
			}
			before := e.st.Snapshot()
			res, err := Apply(e.st, Call{To: c.to, From: c.from, Value: value, Payload: Payload(c.method, c.args...), Height: c.height, Cycles: cycles})
			if c.want == "" {
				if err != nil || res.CyclesUsed != CallCycles {
					t.Fatalf("%v, %d cycles", err, res.CyclesUsed)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("%v, want %q", err, c.want)
			}
			if e.st.Snapshot() != before {
				t.Fatal("a refused call changed the state")
			}
		})
	}
}

// TestRelayRecords: register and update store the address and capacity
// given; exit names the withdrawal height; a withdrawal deletes the record
// and, from the middle of the list, moves the last relay into the gap.
func TestRelayRecords(t *testing.T) {
	e := newEnv(t)
	for i := byte(1); i <= 4; i++ {
		e.must(RegistryAddress, addr(i), MinRelayStake, 1, "register_relay", fmt.Sprintf("10.0.0.%d:7", i), uint64(i)<<20)
	}
	e.must(RegistryAddress, addr(3), nil, 2, "update_relay", "10.9.9.9:8", uint64(77))
	for i, w := range []struct {
		addr string
		cap  uint64
	}{{"10.0.0.1:7", 1 << 20}, {"10.0.0.2:7", 2 << 20}, {"10.9.9.9:8", 77}, {"10.0.0.4:7", 4 << 20}} {
		r, err := ReadRelay(e.st, addr(byte(i+1)))
		if err != nil || r == nil || r.Addr != w.addr || r.Capacity != w.cap || r.Index != uint64(i) || r.Joined != 1 {
			t.Fatalf("relay %d: %+v %v", i+1, r, err)
		}
	}
	res, err := Apply(e.st, Call{To: RegistryAddress, From: addr(2), Value: new(big.Int), Payload: Payload("exit_relay"), Height: 40, Cycles: 1_000_000})
	if err != nil {
		t.Fatal(err)
	}
	var ev struct {
		WithdrawAt uint64 `cbor:"withdraw_at"`
	}
	if err := cbor.Unmarshal(res.Events[0].Data, &ev); err != nil || ev.WithdrawAt != 40+UnbondBlocks {
		t.Fatalf("exit event %+v %v", ev, err)
	}
	if err := e.call(RegistryAddress, addr(2), nil, 40+UnbondBlocks-1, "withdraw_relay"); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("stake unbonds at height %d", 40+UnbondBlocks)) {
		t.Fatalf("early withdrawal: %v", err)
	}
	e.must(RegistryAddress, addr(2), nil, 40+UnbondBlocks, "withdraw_relay")
	if r, err := ReadRelay(e.st, addr(2)); r != nil || err != nil {
		t.Fatalf("a withdrawn relay's record stays: %+v %v", r, err)
	}
	rs, err := ListRelays(e.st)
	if err != nil || len(rs) != 3 {
		t.Fatalf("list %v %v", rs, err)
	}
	for i, want := range []types.Address{addr(1), addr(4), addr(3)} {
		if rs[i].Address != want || rs[i].Relay.Index != uint64(i) {
			t.Fatalf("list[%d] = %s (index %d), want %s", i, rs[i].Address, rs[i].Relay.Index, want)
		}
	}
	// A position at or past the list's end is refused and changes nothing.
	for _, i := range []uint64{3, 4} {
		before := e.st.Snapshot()
		if err := listRemove(e.st, i); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("position %d of 3", i)) {
			t.Fatalf("listRemove(%d): %v", i, err)
		}
		if e.st.Snapshot() != before {
			t.Fatalf("listRemove(%d) changed the state", i)
		}
	}
}

// TestAttestDepositEdge: a bill that takes exactly the deposit leaves the
// volume paid up; one base unit more puts it in arrears.
func TestAttestDepositEdge(t *testing.T) {
	for _, c := range []struct {
		deposit int64
		arrears bool
	}{{100 * RentPerByteEpoch, false}, {100*RentPerByteEpoch - 1, true}} {
		e := newEnv(t)
		e.must(RegistryAddress, addr(2), MinRelayStake, 1, "register_relay", "127.0.0.1:1", uint64(1<<30))
		e.must(ManagerAddress, addr(1), big.NewInt(c.deposit), 1, "create_volume", "v", uint64(1), uint64(0))
		id := cbfs.DeriveVolumeID(addr(1), "v")
		e.must(ManagerAddress, addr(1), nil, 1, "commit", id[:], make([]byte, 32), commitment(100, 1, 0))
		e.must(ManagerAddress, addr(2), nil, BillingEpochBlocks, "attest", uint64(0), []any{[]any{id[:], uint64(100)}})
		v, _ := ReadVolume(e.st, id)
		if v.Arrears != c.arrears || v.Deposit.Sign() != 0 {
			t.Errorf("deposit %d: %+v", c.deposit, v)
		}
	}
}

// TestEvictMessage: the refusal inside the grace period names the height
// eviction becomes possible.
func TestEvictMessage(t *testing.T) {
	e := newEnv(t)
	e.must(RegistryAddress, addr(2), MinRelayStake, 1, "register_relay", "127.0.0.1:1", uint64(1<<30))
	e.must(ManagerAddress, addr(1), big.NewInt(1), 1, "create_volume", "v", uint64(1), uint64(0))
	id := cbfs.DeriveVolumeID(addr(1), "v")
	e.must(ManagerAddress, addr(1), nil, 1, "commit", id[:], make([]byte, 32), commitment(100, 1, 0))
	e.must(ManagerAddress, addr(2), nil, BillingEpochBlocks+3, "attest", uint64(0), []any{[]any{id[:], uint64(100)}})
	want := fmt.Sprintf("in arrears since height %d; it may be evicted from height %d", BillingEpochBlocks+3, BillingEpochBlocks+3+EvictGraceBlocks)
	if err := e.call(ManagerAddress, addr(5), nil, BillingEpochBlocks+4, "evict", id[:]); err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("%v, want %q", err, want)
	}
}

// TestHandles: exactly the two storage actors are run by this package.
func TestHandles(t *testing.T) {
	for _, c := range []struct {
		a    types.Address
		want bool
	}{{ManagerAddress, true}, {RegistryAddress, true}, {types.Address{19: 0x0c}, false}, {addr(10), false}} {
		if Handles(c.a) != c.want {
			t.Errorf("Handles(%s) = %v", c.a, !c.want)
		}
	}
}
