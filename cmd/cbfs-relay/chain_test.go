package main

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

// The events 0x0A emits for "revoke" decode into what the relay applies;
// a log that is not a 0x0A revoke is refused.
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
	revs, err := revokeLogs(logs)
	if err != nil || len(revs) != 1 {
		t.Fatalf("decode: %v %v", revs, err)
	}
	if r := revs[0]; r.Volume != vol || r.Link != link || r.Expiry != 12345 {
		t.Fatalf("decoded %+v", r)
	}
	for _, bad := range []rpc.LogJSON{
		{Address: rpc.Address(storage.RegistryAddress), Name: "revoke", Data: ev.Data},
		{Address: logs[0].Address, Name: "commit", Data: ev.Data},
		{Address: logs[0].Address, Name: "revoke", Data: []byte{0xff}},
		{Address: logs[0].Address, Name: "revoke", Data: storage.Payload("x")},
	} {
		if _, err := revokeLogs([]rpc.LogJSON{bad}); err == nil {
			t.Errorf("log %+v accepted", bad)
		}
	}
}
