package execution

import (
	"math/big"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/cbfs"
	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/system/storage"
	"github.com/cowboy-chain/cowboy/chain/types"
)

// TestStorageActorsThroughApplyTx sends transactions to 0x0A: a volume
// is created with a deposit and a commitment recorded; a bad call fails
// with its fee charged and nothing else changed.
func TestStorageActorsThroughApplyTx(t *testing.T) {
	r := setup(t)
	st := state.New(r)
	bc := &BlockContext{ChainID: chainID, Height: 1, Proposer: proposer, Basefees: Basefees{Cycle: 1, Cell: 1}}
	tx := func(nonce uint64, value *big.Int, payload []byte) *types.Tx {
		to := storage.ManagerAddress
		t := &types.Tx{ChainID: chainID, Nonce: nonce, To: &to, Value: value, Payload: payload,
			CyclesLimit: 100_000, CellsLimit: 1_000, MaxFeePerCycle: 10, MaxFeePerCell: 10, TipPerCycle: 1}
		t.Sign(aliceKey)
		return t
	}
	rc, err := ApplyTx(st, bc, tx(0, big.NewInt(1_000_000), storage.Payload("create_volume", "logs", uint64(4), uint64(2))))
	if err != nil || rc.Status != types.ReceiptSuccess {
		t.Fatalf("create_volume: %v %+v", err, rc)
	}
	id := cbfs.DeriveVolumeID(alice, "logs")
	com := cbfs.StorageCommitment{Root: [32]byte{5}, Size: 100, SegSize: 8 << 20, K: 4, M: 2, Version: 1}.Bytes()
	pid := [32]byte{7}
	rc, err = ApplyTx(st, bc, tx(1, nil, storage.Payload("commit", id[:], pid[:], com)))
	if err != nil || rc.Status != types.ReceiptSuccess {
		t.Fatalf("commit: %v %+v", err, rc)
	}
	if got := storage.ReadCommitment(st, id, pid); string(got) != string(com) {
		t.Fatal("commitment not on chain")
	}
	if b := st.Balance(storage.ManagerAddress); b.Int64() != 1_000_000 {
		t.Fatalf("0x0A holds %s", b)
	}
	bal := st.Balance(alice)
	rc, err = ApplyTx(st, bc, tx(2, big.NewInt(5), storage.Payload("create_volume", "logs", uint64(4), uint64(2))))
	if err != nil || rc.Status != types.ReceiptFailed || !strings.Contains(rc.Error, "exists") {
		t.Fatalf("duplicate create: %v %+v", err, rc)
	}
	if spent := new(big.Int).Sub(bal, st.Balance(alice)); spent.Cmp(rc.Fee) != 0 {
		t.Fatalf("a failed call cost %s, its fee is %s", spent, rc.Fee)
	}
}
