package execution

import (
	"bytes"
	"github.com/cowboy-chain/cowboy/crypto/vrf"
	"math/big"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/system/staking"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto/bls"
)

// stakingChain is alice with 10 CBY, a registry with epoch length 5 and a
// minimum stake of 2 CBY, and no genesis validators (like the devnet).
func stakingChain(t *testing.T) memReader {
	r := setup(t)
	st := state.New(r)
	p := staking.Params{EpochLength: 5, UnbondingPeriod: 10, JailPeriod: 3, DowntimeWindow: 4, MinStake: cby(2), SlashBps: 100}
	if err := staking.InitGenesis(st, p, nil, [32]byte{9}); err != nil {
		t.Fatal(err)
	}
	r.commit(t, st)
	return r
}

func stakingTx(nonce uint64, value *big.Int, payload []byte) *types.Tx {
	to := staking.Address
	tx := &types.Tx{ChainID: chainID, Nonce: nonce, To: &to, Value: value, Payload: payload,
		CyclesLimit: 100_000, CellsLimit: 1_000, MaxFeePerCycle: 10, MaxFeePerCell: 10, TipPerCycle: 1}
	tx.Sign(aliceKey)
	return tx
}

// TestStakingThroughBuild drives blocks through Build: a failed register
// (bad proof of possession) costs only its fee, a good one bonds the
// stake, and EpochSet(1) appears at the end of block 4, the last of epoch
// 0. Execute of the same blocks gives byte-identical state.
func TestStakingThroughBuild(t *testing.T) {
	k, err := bls.GenerateKey(bytes.Repeat([]byte{3}, 32))
	if err != nil {
		t.Fatal(err)
	}
	other, _ := bls.GenerateKey(bytes.Repeat([]byte{4}, 32))
	pk := k.PublicKey().Bytes()
	blocks := [][]*types.Tx{
		{stakingTx(0, cby(3), staking.RegisterPayload(pk, other.ProvePossession().Bytes())),
			stakingTx(1, cby(3), staking.RegisterPayload(pk, k.ProvePossession().Bytes()))},
		{}, {},
		{stakingTx(2, big.NewInt(0), staking.MethodPayload("bogus"))},
	}
	built, executed := stakingChain(t), stakingChain(t)
	for i, txs := range blocks {
		h := uint64(i + 1)
		bc := &BlockContext{ChainID: chainID, Height: h, Proposer: proposer, Basefees: Basefees{Cycle: 1, Cell: 1}, Beacon: [32]byte{byte(h)}}
		st := state.New(built)
		bal := st.Balance(alice)
		res, err := Build(st, bc, txs)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Rejected) != 0 {
			t.Fatalf("block %d rejected %v", h, res.Rejected[0].Err)
		}
		switch h {
		case 1:
			bad, good := res.Receipts[0], res.Receipts[1]
			if bad.Status != types.ReceiptFailed || !strings.Contains(bad.Error, "proof_of_possession does not verify") {
				t.Fatalf("bad register receipt %+v", bad)
			}
			if bad.CyclesUsed != 10_000+staking.CallCycles+staking.BLSVerifyCycles || good.CyclesUsed != bad.CyclesUsed {
				t.Fatalf("cycles %d %d", bad.CyclesUsed, good.CyclesUsed)
			}
			if good.Status != types.ReceiptSuccess {
				t.Fatalf("register failed: %s", good.Error)
			}
			spent := new(big.Int).Sub(bal, st.Balance(alice))
			want := new(big.Int).Add(cby(3), bad.Fee)
			if spent.Cmp(want.Add(want, good.Fee)) != 0 {
				t.Fatalf("alice spent %s, want the stake once plus two fees", spent)
			}
			if st.Balance(staking.Address).Cmp(cby(3)) != 0 {
				t.Fatalf("registry holds %s", st.Balance(staking.Address))
			}
		case 4:
			if rc := res.Receipts[0]; rc.Status != types.ReceiptFailed || !strings.Contains(rc.Error, `unknown method "bogus"`) {
				t.Fatalf("bogus call receipt %+v", rc)
			}
		}
		_, err = staking.ReadEpochSet(st, 1)
		if h < 4 && err == nil {
			t.Fatalf("EpochSet(1) exists after block %d", h)
		}
		if h == 4 {
			s, err := staking.ReadEpochSet(st, 1)
			if err != nil {
				t.Fatalf("EpochSet(1) after block 4: %v", err)
			}
			if len(s.Members) != 1 || s.Members[0].Address != alice || s.Members[0].Weight != 3 || s.Seed != vrf.NextEpochSeed([32]byte{9}, [32]byte{4}) {
				t.Fatalf("EpochSet(1) %+v", s)
			}
		}
		wb := commitWrites(t, built, st)

		st2 := state.New(executed)
		// A second node replays the block's transactions (decoded from
		// their wire bytes, senders not cached) through the same Build.
		replay := make([]*types.Tx, len(res.Txs))
		for j, tx := range res.Txs {
			if replay[j], err = types.DecodeTx(tx.Encode()); err != nil {
				t.Fatal(err)
			}
		}
		fresh := *bc
		fresh.actorUsed, fresh.delivered, fresh.seen = nil, nil, nil
		again, err := Build(st2, &fresh, replay)
		if err != nil {
			t.Fatal(err)
		}
		if len(again.Rejected) != 0 || len(again.Deferred) != 0 || len(again.Txs) != len(res.Txs) {
			t.Fatalf("block %d: replay rejected %d, deferred %d", h, len(again.Rejected), len(again.Deferred))
		}
		we := commitWrites(t, executed, st2)
		if len(wb) != len(we) {
			t.Fatalf("block %d: Build wrote %d keys, the replay %d", h, len(wb), len(we))
		}
		for j := range wb {
			if wb[j].Key != we[j].Key || !bytes.Equal(wb[j].Value, we[j].Value) {
				t.Fatalf("block %d: write %d differs between Build and its replay", h, j)
			}
		}
	}
}

func commitWrites(t *testing.T, r memReader, st *state.StateDB) []state.Write {
	t.Helper()
	ws, err := st.Writes()
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range ws {
		if w.Value == nil {
			delete(r, w.Key)
		} else {
			r[w.Key] = w.Value
		}
	}
	return ws
}

// TestStakingSimulate is what fee estimation sees: a register call's
// cycles, and a failing call's reason, without a signature.
func TestStakingSimulate(t *testing.T) {
	r := stakingChain(t)
	k, _ := bls.GenerateKey(bytes.Repeat([]byte{3}, 32))
	to := staking.Address
	bc := &BlockContext{ChainID: chainID, Height: 1, Basefees: Basefees{Cycle: 1, Cell: 1}}
	pay := staking.RegisterPayload(k.PublicKey().Bytes(), k.ProvePossession().Bytes())
	rc := Simulate(state.New(r), bc, alice, &to, cby(3), pay, 1_000_000, 10_000)
	if rc.Status != types.ReceiptSuccess || rc.CyclesUsed != 10_000+staking.CallCycles+staking.BLSVerifyCycles || rc.CellsUsed != uint64(len(pay)) {
		t.Fatalf("simulated register %+v", rc)
	}
	rc = Simulate(state.New(r), bc, alice, &to, cby(1), pay, 1_000_000, 10_000)
	if rc.Status != types.ReceiptFailed || !strings.Contains(rc.Error, "below min_validator_stake") {
		t.Fatalf("simulated small register %+v", rc)
	}
}

// TestRegistryRefusesActors: the registry's balance is exactly the bonded
// stake, so an actor can neither transfer to it nor message it (with or
// without value); only transactions reach it.
func TestRegistryRefusesActors(t *testing.T) {
	e := newActorEnv(t)
	a := e.mustDeploy(`
from cowboy_sdk import actor, send_message, transfer
@actor
class A:
    def __init__(self):
        pass
    def give(self, to):
        transfer(to, 1)
    def msg(self, to, v):
        send_message(to, "register", value=v)
`)
	e.st.Mint(a, big.NewInt(100))
	reg := staking.Address.Hex()
	e.newBlock()
	wantFail(t, e.call(a, "give", reg), "takes stake only through register transactions")
	for _, v := range []int64{0, 5} {
		e.newBlock()
		rc := e.call(a, "msg", reg, v)
		if rc.Status != types.ReceiptSuccess || len(rc.Messages) != 2 || rc.Messages[1].Status != types.ReceiptFailed ||
			!strings.Contains(rc.Messages[1].Error, "takes transactions only") {
			t.Fatalf("message to the registry: %+v", rc.Messages)
		}
	}
	if e.st.Balance(staking.Address).Sign() != 0 || e.st.Balance(a).Cmp(big.NewInt(100)) != 0 {
		t.Fatalf("registry %s, actor %s", e.st.Balance(staking.Address), e.st.Balance(a))
	}
}
