package storage

import (
	"math/big"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/cbfs"
	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/types"
)

type memReader map[state.Key][]byte

func (m memReader) GetState(k state.Key) ([]byte, error) { return m[k], nil }

func addr(i byte) types.Address { return types.Address{0: 0xaa, 19: i} }

func cby(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), big.NewInt(1e18)) }

type env struct {
	t  *testing.T
	st *state.StateDB
}

func newEnv(t *testing.T) *env {
	st := state.New(memReader{})
	for i := byte(1); i < 10; i++ {
		st.Mint(addr(i), cby(1_000_000))
	}
	return &env{t: t, st: st}
}

func (e *env) call(to, from types.Address, value *big.Int, height uint64, method string, args ...any) error {
	_, err := Apply(e.st, Call{To: to, From: from, Value: value, Payload: Payload(method, args...), Height: height, Cycles: 1_000_000})
	return err
}

func (e *env) must(to, from types.Address, value *big.Int, height uint64, method string, args ...any) {
	e.t.Helper()
	if err := e.call(to, from, value, height, method, args...); err != nil {
		e.t.Fatalf("%s: %v", method, err)
	}
}

func commitment(size uint64, k, m uint8) []byte {
	return cbfs.StorageCommitment{Root: [32]byte{1}, Size: size, SegSize: 8 << 20, K: k, M: m, Version: cbfs.ManifestVersion}.Bytes()
}

func TestVolumeLifecycleAndBilling(t *testing.T) {
	e := newEnv(t)
	owner, relayA, relayB, stranger := addr(1), addr(2), addr(3), addr(4)
	e.must(ManagerAddress, owner, big.NewInt(10_000_000_000_000), 1, "create_volume", "logs", uint64(4), uint64(2))
	id := cbfs.DeriveVolumeID(owner, "logs")
	if err := e.call(ManagerAddress, owner, nil, 1, "create_volume", "logs", uint64(4), uint64(2)); err == nil {
		t.Fatal("a volume was created twice")
	}
	pid := [32]byte{9}
	if err := e.call(ManagerAddress, stranger, nil, 2, "commit", id[:], pid[:], commitment(1000, 4, 2)); err == nil || !strings.Contains(err.Error(), "only the owner") {
		t.Fatalf("stranger commit: %v", err)
	}
	if err := e.call(ManagerAddress, owner, nil, 2, "commit", id[:], pid[:], commitment(1000, 3, 2)); err == nil {
		t.Fatal("commitment with another shape accepted")
	}
	e.must(ManagerAddress, owner, nil, 2, "commit", id[:], pid[:], commitment(4_000_000, 4, 2))
	if c := ReadCommitment(e.st, id, pid); len(c) != cbfs.CommitmentSize {
		t.Fatal("commitment not stored")
	}
	v, _ := ReadVolume(e.st, id)
	if v.UsedBytes != 4_000_000 || v.Files != 1 {
		t.Fatalf("volume after commit: %+v", v)
	}

	// Relays register with stake; attest a finished epoch; get paid.
	if err := e.call(RegistryAddress, relayA, cby(10), 3, "register_relay", "127.0.0.1:7450", uint64(1<<30)); err == nil {
		t.Fatal("relay registered below the minimum stake")
	}
	e.must(RegistryAddress, relayA, cby(1000), 3, "register_relay", "127.0.0.1:7450", uint64(1<<30))
	e.must(RegistryAddress, relayB, cby(1000), 3, "register_relay", "127.0.0.1:7451", uint64(1<<30))
	type ent = []any
	if err := e.call(ManagerAddress, relayA, nil, 10, "attest", uint64(0), []ent{{id[:], uint64(1_000_000)}}); err == nil {
		t.Fatal("attested an epoch that has not ended")
	}
	if err := e.call(ManagerAddress, stranger, nil, BillingEpochBlocks+1, "attest", uint64(0), []ent{{id[:], uint64(1)}}); err == nil {
		t.Fatal("a non-relay attested")
	}
	h := uint64(BillingEpochBlocks + 1)
	balA := e.st.Balance(relayA)
	e.must(ManagerAddress, relayA, nil, h, "attest", uint64(0), []ent{{id[:], uint64(2_000_000)}})
	paidA := new(big.Int).Sub(e.st.Balance(relayA), balA)
	if want := big.NewInt(2_000_000 * RentPerByteEpoch); paidA.Cmp(want) != 0 {
		t.Fatalf("relay A paid %s, want %s", paidA, want)
	}
	if err := e.call(ManagerAddress, relayA, nil, h, "attest", uint64(0), []ent{{id[:], uint64(1)}}); err == nil {
		t.Fatal("a relay was paid twice for one epoch")
	}
	// The cap: 4,000,000 × 6/4 = 6,000,000 bytes a epoch for all relays.
	balB := e.st.Balance(relayB)
	e.must(ManagerAddress, relayB, nil, h, "attest", uint64(0), []ent{{id[:], uint64(9_000_000)}})
	paidB := new(big.Int).Sub(e.st.Balance(relayB), balB)
	if want := big.NewInt(4_000_000 * RentPerByteEpoch); paidB.Cmp(want) != 0 {
		t.Fatalf("relay B paid %s, want %s (capped)", paidB, want)
	}
	v, _ = ReadVolume(e.st, id)
	if want := new(big.Int).Sub(big.NewInt(10_000_000_000_000), big.NewInt(6_000_000*RentPerByteEpoch)); v.Deposit.Cmp(want) != 0 {
		t.Fatalf("deposit %s, want %s", v.Deposit, want)
	}
	// A deposit that runs short pays what is left and marks arrears.
	e.must(ManagerAddress, relayA, nil, 2*BillingEpochBlocks+1, "attest", uint64(1), []ent{{id[:], uint64(6_000_000)}})
	v, _ = ReadVolume(e.st, id)
	if v.Deposit.Sign() != 0 || !v.Arrears {
		t.Fatalf("after a short bill: %+v", v)
	}
	e.must(ManagerAddress, stranger, big.NewInt(5), 2*BillingEpochBlocks+2, "top_up", id[:])
	v, _ = ReadVolume(e.st, id)
	if v.Arrears || v.Deposit.Int64() != 5 {
		t.Fatalf("after top up: %+v", v)
	}

	// Close needs no files; refunds the deposit.
	if err := e.call(ManagerAddress, owner, nil, 9000, "close_volume", id[:]); err == nil {
		t.Fatal("closed a volume with files")
	}
	e.must(ManagerAddress, owner, nil, 9000, "remove", id[:], pid[:])
	bal := e.st.Balance(owner)
	e.must(ManagerAddress, owner, nil, 9001, "close_volume", id[:])
	if got := new(big.Int).Sub(e.st.Balance(owner), bal); got.Int64() != 5 {
		t.Fatalf("refund %s", got)
	}
	if v, _ := ReadVolume(e.st, id); v != nil {
		t.Fatal("closed volume still recorded")
	}

	// Relay exit and withdraw after unbonding.
	e.must(RegistryAddress, relayA, nil, 100, "exit_relay")
	if err := e.call(RegistryAddress, relayA, nil, 100+UnbondBlocks-1, "withdraw_relay"); err == nil {
		t.Fatal("withdrew before unbonding")
	}
	bal = e.st.Balance(relayA)
	e.must(RegistryAddress, relayA, nil, 100+UnbondBlocks, "withdraw_relay")
	if got := new(big.Int).Sub(e.st.Balance(relayA), bal); got.Cmp(cby(1000)) != 0 {
		t.Fatalf("withdrew %s", got)
	}
	// Money is conserved: what left the accounts sits in 0x0A/0x0B.
	sum := new(big.Int)
	for _, a := range []types.Address{owner, relayA, relayB, stranger, ManagerAddress, RegistryAddress} {
		sum.Add(sum, e.st.Balance(a))
	}
	if want := cby(4_000_000); sum.Cmp(want) != 0 {
		t.Fatalf("balances sum to %s, want %s", sum, want)
	}
}

func TestBadCallsChangeNothing(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		to      types.Address
		payload []byte
		want    string
	}{
		{ManagerAddress, []byte{0xff}, "canonical CBOR"},
		{ManagerAddress, Payload("nope"), "unknown method"},
		{ManagerAddress, Payload("create_volume", "Bad Name", uint64(4), uint64(2)), "volume name"},
		{ManagerAddress, Payload("create_volume", "ok", uint64(0), uint64(2)), "k ≥ 1"},
		{ManagerAddress, Payload("commit", []byte{1}, []byte{2}, []byte{3}), "32 bytes"},
		{RegistryAddress, Payload("register_relay", "", uint64(1)), "addr"},
		{RegistryAddress, Payload("exit_relay"), "not a relay"},
	}
	for _, c := range cases {
		before := e.st.Snapshot()
		_, err := Apply(e.st, Call{To: c.to, From: addr(1), Value: new(big.Int), Payload: c.payload, Height: 1, Cycles: 1_000_000})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Fatalf("%x: %v, want %q", c.payload, err, c.want)
		}
		if e.st.Snapshot() != before {
			t.Fatalf("%x: state changed", c.payload)
		}
	}
	if _, err := Apply(e.st, Call{To: ManagerAddress, From: addr(1), Payload: Payload("top_up"), Cycles: 10}); err == nil {
		t.Fatal("ran without cycles")
	}
}

// Only the owner revokes, once; the record answers IsRevoked and the
// event carries volume, link and expiry.
func TestRevokeOnChain(t *testing.T) {
	e := newEnv(t)
	owner, stranger := addr(1), addr(4)
	e.must(ManagerAddress, owner, big.NewInt(1), 1, "create_volume", "logs", uint64(4), uint64(2))
	id := cbfs.DeriveVolumeID(owner, "logs")
	link := [32]byte{5}
	for _, c := range []struct {
		from  types.Address
		args  []any
		value *big.Int
		want  string
	}{
		{stranger, []any{id[:], link[:], uint64(9)}, nil, "only the owner"},
		{owner, []any{id[:], link[:4], uint64(9)}, nil, "link id must be 32 bytes"},
		{owner, []any{link[:], link[:], uint64(9)}, nil, "no volume"},
		{owner, []any{id[:], link[:]}, nil, "takes 3 argument"},
		{owner, []any{id[:], link[:], uint64(9)}, big.NewInt(1), "takes no value"},
	} {
		if err := e.call(ManagerAddress, c.from, c.value, 2, "revoke", c.args...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("revoke %v: %v, want %q", c.args, err, c.want)
		}
		if IsRevoked(e.st, id, link) {
			t.Fatal("a refused revoke was recorded")
		}
	}
	res, err := Apply(e.st, Call{To: ManagerAddress, From: owner, Payload: Payload("revoke", id[:], link[:], uint64(9)), Height: 2, Cycles: 1_000_000})
	if err != nil || !IsRevoked(e.st, id, link) {
		t.Fatalf("revoke: %v", err)
	}
	var ev RevokeEvent
	if err := types.Unmarshal(res.Events[0].Data, &ev); err != nil || [32]byte(ev.Volume) != id || [32]byte(ev.Link) != link || ev.Expiry != 9 || res.Events[0].Name != "revoke" {
		t.Fatalf("event %+v %v", ev, err)
	}
	if err := e.call(ManagerAddress, owner, nil, 3, "revoke", id[:], link[:], uint64(9)); err == nil || !strings.Contains(err.Error(), "already revoked") {
		t.Fatalf("second revoke: %v", err)
	}
}

// A volume whose deposit runs out is in arrears from that bill; anyone may
// evict it EvictGraceBlocks later (not before, not a paid-up one), after
// which it takes no commits or top-ups but can still be cleaned and closed.
func TestEvictAfterArrears(t *testing.T) {
	e := newEnv(t)
	owner, relay, anyone := addr(1), addr(2), addr(5)
	e.must(RegistryAddress, relay, MinRelayStake, 1, "register_relay", "127.0.0.1:1", uint64(1<<30))
	e.must(ManagerAddress, owner, big.NewInt(RentPerByteEpoch), 1, "create_volume", "logs", uint64(1), uint64(0))
	id := cbfs.DeriveVolumeID(owner, "logs")
	pid := [32]byte{3}
	e.must(ManagerAddress, owner, nil, 2, "commit", id[:], pid[:], commitment(100, 1, 0))
	if err := e.call(ManagerAddress, anyone, nil, 3, "evict", id[:]); err == nil || !strings.Contains(err.Error(), "not in arrears") {
		t.Fatalf("evict a paid-up volume: %v", err)
	}
	type ent struct {
		_   struct{} `cbor:",toarray"`
		Vol []byte
		N   uint64
	}
	bill := uint64(BillingEpochBlocks + 5)
	e.must(ManagerAddress, relay, nil, bill, "attest", uint64(0), []ent{{Vol: id[:], N: 100}})
	v, _ := ReadVolume(e.st, id)
	if !v.Arrears || v.ArrearsAt != bill {
		t.Fatalf("after the short bill: %+v", v)
	}
	if err := e.call(ManagerAddress, anyone, nil, bill+EvictGraceBlocks-1, "evict", id[:]); err == nil || !strings.Contains(err.Error(), "may be evicted from height") {
		t.Fatalf("evict inside the grace period: %v", err)
	}
	e.must(ManagerAddress, anyone, nil, bill+EvictGraceBlocks, "evict", id[:])
	if v, _ := ReadVolume(e.st, id); !v.Evicted {
		t.Fatal("not marked evicted")
	}
	for _, c := range []struct {
		method string
		value  *big.Int
		args   []any
	}{
		{"evict", nil, []any{id[:]}},
		{"top_up", big.NewInt(5), []any{id[:]}},
		{"commit", nil, []any{id[:], pid[:], commitment(100, 1, 0)}},
	} {
		if err := e.call(ManagerAddress, owner, c.value, bill+EvictGraceBlocks+1, c.method, c.args...); err == nil {
			t.Errorf("%s of an evicted volume accepted", c.method)
		}
	}
	e.must(ManagerAddress, owner, nil, bill+EvictGraceBlocks+1, "remove", id[:], pid[:])
	e.must(ManagerAddress, owner, nil, bill+EvictGraceBlocks+1, "close_volume", id[:])
}

// The relay list holds every registered relay; a withdrawal moves the
// last one into its place, and a refused registration adds nothing.
func TestRelayList(t *testing.T) {
	e := newEnv(t)
	list := func() []types.Address {
		t.Helper()
		rs, err := ListRelays(e.st)
		if err != nil {
			t.Fatal(err)
		}
		var out []types.Address
		for i, r := range rs {
			if r.Relay.Index != uint64(i) {
				t.Fatalf("relay %s at %d says index %d", r.Address, i, r.Relay.Index)
			}
			out = append(out, r.Address)
		}
		return out
	}
	for i := byte(1); i <= 3; i++ {
		e.must(RegistryAddress, addr(i), MinRelayStake, 1, "register_relay", "127.0.0.1:1", uint64(1<<30))
	}
	if err := e.call(RegistryAddress, addr(4), big.NewInt(1), 1, "register_relay", "127.0.0.1:1", uint64(1)); err == nil {
		t.Fatal("a short stake registered")
	}
	if got := list(); len(got) != 3 || got[0] != addr(1) || got[2] != addr(3) {
		t.Fatalf("list %v", got)
	}
	e.must(RegistryAddress, addr(1), nil, 2, "exit_relay")
	e.must(RegistryAddress, addr(1), nil, 2+UnbondBlocks, "withdraw_relay")
	if got := list(); len(got) != 2 || got[0] != addr(3) || got[1] != addr(2) {
		t.Fatalf("after withdrawing the first: %v", got)
	}
	e.must(RegistryAddress, addr(2), nil, 3, "exit_relay")
	e.must(RegistryAddress, addr(2), nil, 3+UnbondBlocks, "withdraw_relay")
	if got := list(); len(got) != 1 || got[0] != addr(3) {
		t.Fatalf("after withdrawing the last: %v", got)
	}
}
