package chainfeed

import (
	"math/big"
	"testing"

	"github.com/cowboy-chain/cowboy/cbfs"
	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/system/storage"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/rpc"
)

type memReader map[state.Key][]byte

func (m memReader) GetState(k state.Key) ([]byte, error) { return m[k], nil }

// The events 0x0A emits for "revoke" and "evict" decode into what the
// relay applies, other 0x0A events are skipped, and a log from elsewhere
// or with bad data is refused.
func TestRevokeLogsFromTheStorageManager(t *testing.T) {
	st := state.New(memReader{})
	owner := types.Address{1}
	st.Mint(owner, big.NewInt(1e18))
	call := func(method string, args ...any) storage.Result {
		res, err := storage.Apply(st, storage.Call{To: storage.ManagerAddress, From: owner, Value: new(big.Int), Payload: storage.Payload(method, args...), Height: 3, Cycles: 1_000_000})
		if err != nil {
			t.Fatalf("%s: %v", method, err)
		}
		return res
	}
	call("create_volume", "logs", uint64(2), uint64(1))
	vol := cbfs.DeriveVolumeID(owner, "logs")
	link := [32]byte{7, 7}
	res := call("revoke", vol[:], link[:], uint64(12345))
	ev := res.Events[0]
	logs := []rpc.LogJSON{{Address: rpc.Address(ev.Address), Name: ev.Name, Data: ev.Data}}
	// An attest that drains the deposit, a day in arrears, then evict.
	relayAddr := types.Address{9}
	st.Mint(relayAddr, storage.MinRelayStake)
	if _, err := storage.Apply(st, storage.Call{To: storage.RegistryAddress, From: relayAddr, Value: storage.MinRelayStake, Payload: storage.Payload("register_relay", "127.0.0.1:1", uint64(1<<30)), Height: 3, Cycles: 1_000_000}); err != nil {
		t.Fatal(err)
	}
	com := cbfs.StorageCommitment{Root: [32]byte{1}, Size: 1000, SegSize: 8 << 20, K: 2, M: 1, Version: cbfs.ManifestVersion}
	call("commit", vol[:], link[:], com.Bytes())
	if _, err := storage.Apply(st, storage.Call{To: storage.ManagerAddress, From: relayAddr, Value: new(big.Int), Payload: storage.Payload("attest", uint64(0), []any{[]any{vol[:], uint64(1500)}}), Height: storage.BillingEpochBlocks + 1, Cycles: 1_000_000}); err != nil {
		t.Fatal(err)
	}
	evict, err := storage.Apply(st, storage.Call{To: storage.ManagerAddress, From: relayAddr, Value: new(big.Int), Payload: storage.Payload("evict", vol[:]), Height: storage.BillingEpochBlocks + 1 + storage.EvictGraceBlocks, Cycles: 1_000_000})
	if err != nil {
		t.Fatal(err)
	}
	ev2 := evict.Events[0]
	logs = append(logs,
		rpc.LogJSON{Address: logs[0].Address, Name: "commit", Data: ev.Data},
		rpc.LogJSON{Address: rpc.Address(ev2.Address), Name: ev2.Name, Data: ev2.Data})
	evs, err := Decode(logs)
	if err != nil || len(evs.Revocations) != 1 || len(evs.Evictions) != 1 {
		t.Fatalf("decode: %+v %v", evs, err)
	}
	if r := evs.Revocations[0]; r.Volume != vol || r.Link != link || r.Expiry != 12345 {
		t.Fatalf("decoded %+v", r)
	}
	if evs.Evictions[0] != vol {
		t.Fatalf("eviction of %x", evs.Evictions[0])
	}
	for _, bad := range []rpc.LogJSON{
		{Address: rpc.Address(storage.RegistryAddress), Name: "revoke", Data: ev.Data},
		{Address: logs[0].Address, Name: "revoke", Data: []byte{0xff}},
		{Address: logs[0].Address, Name: "revoke", Data: storage.Payload("x")},
		{Address: logs[0].Address, Name: "evict", Data: ev.Data},
	} {
		if _, err := Decode([]rpc.LogJSON{bad}); err == nil {
			t.Errorf("log %+v accepted", bad)
		}
	}
}
