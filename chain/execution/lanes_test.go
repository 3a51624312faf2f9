package execution

import (
	"encoding/binary"
	"math/big"
	"reflect"
	"slices"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/fees"
	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/system/runner"
	"github.com/cowboy-chain/cowboy/chain/system/staking"
	"github.com/cowboy-chain/cowboy/chain/system/storage"
	"github.com/cowboy-chain/cowboy/chain/timers"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
)

func TestLaneOf(t *testing.T) {
	reg, user := staking.Address, bob
	mgr, relay := storage.ManagerAddress, storage.RegistryAddress
	for _, to := range []*types.Address{&reg, &mgr, &relay} {
		if LaneOf(&types.Tx{To: to}) != fees.LaneSystem {
			t.Fatalf("a call to %s is not the system lane", to)
		}
	}
	if LaneOf(&types.Tx{To: &user}) != fees.LaneUser || LaneOf(&types.Tx{}) != fees.LaneUser {
		t.Fatal("lane tags")
	}
}

// LaneOf's first-byte shortcut (systemFirstByte) gives the lane of the
// rule it shortcuts, the system actors' own Handles, for every address with
// one non-zero byte (the system addresses are of that form) and for random
// ones: a system address added to a Handles without its first byte in
// systemFirstByte would fail here.
func TestLaneOfShortcutMatchesHandles(t *testing.T) {
	rule := func(to types.Address) fees.Lane {
		switch {
		case to == staking.Address || storage.Handles(to):
			return fees.LaneSystem
		case runner.Handles(to):
			return fees.LaneRunner
		}
		return fees.LaneUser
	}
	var addrs []types.Address
	for i := range len(types.Address{}) {
		for b := range 256 {
			var a types.Address
			a[i] = byte(b)
			addrs = append(addrs, a)
		}
	}
	for i := range 1000 {
		h := crypto.Keccak256([]byte{byte(i), byte(i >> 8)})
		addrs = append(addrs, types.Address(h[:20]))
	}
	for _, a := range addrs {
		if got, want := LaneOf(&types.Tx{To: &a}), rule(a); got != want {
			t.Fatalf("LaneOf(to %s) = %v, the system actors' rule says %v", a, got, want)
		}
	}
}

// §17.9 with the project's reading: the timer lane's budget is set aside
// from the transactions only in blocks where timers are due; otherwise it
// spills to them.
func TestTimerLaneReservation(t *testing.T) {
	e := newActorEnv(t)
	a := e.deployFunded(oneShot, 0, cby(1))
	ret(t, e.call(a, "arm", int64(3), nil))
	for h, want := range map[uint64]uint64{1: fees.CapCycles, 2: fees.CapCycles, 3: fees.CapCycles - timers.TimerLaneCycles, 4: fees.CapCycles} {
		got, err := TxCycleCap(e.st, h)
		if err != nil || got != want {
			t.Fatalf("height %d: cap %d, want %d (%v)", h, got, want, err)
		}
	}
	// At block 3 a transaction that needs more than the rest is deferred
	// (before any validity check) and the timer runs.
	big := transferTx(func(tx *types.Tx) { tx.CyclesLimit = fees.CapCycles - timers.TimerLaneCycles + 1 })
	e.runTo(2)
	res, err := Build(e.st, e.bc, []*types.Tx{big})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Deferred) != 1 || len(res.Timers.Receipts) != 1 {
		t.Fatalf("block 3: deferred %d, timer runs %d", len(res.Deferred), len(res.Timers.Receipts))
	}
}

var carolKey, _ = crypto.PrivateKeyFromBytes(append(make([]byte, 31), 3))

// userFlood is n transfers from alice (nonces 0…n-1) with a high tip,
// each using 10,000 cycles.
func userFlood(n int) []*types.Tx {
	txs := make([]*types.Tx, n)
	for i := range txs {
		nonce := uint64(i)
		txs[i] = transferTx(func(tx *types.Tx) { tx.Nonce = nonce; tx.TipPerCycle = 5 })
	}
	return txs
}

// registryTx is a validator registry call from carol (a bad payload: it
// fails but is included and uses cycles, like any system-lane call).
func registryTx(limit uint64) *types.Tx {
	to := staking.Address
	tx := &types.Tx{ChainID: chainID, To: &to, Value: big.NewInt(0), Payload: []byte{0x80},
		CyclesLimit: limit, CellsLimit: 1_000, MaxFeePerCycle: 10, MaxFeePerCell: 10}
	tx.Sign(carolKey)
	return tx
}

// laneChain is alice with 10 CBY and carol with 1 CBY.
func laneChain(t *testing.T) memReader {
	r := setup(t)
	st := state.New(r)
	st.Mint(types.Address(carolKey.Address()), cby(1))
	r.commit(t, st)
	return r
}

// beaconWhere finds the first beacon whose VRF order of txs satisfies ok.
func beaconWhere(t *testing.T, txs []*types.Tx, ok func([]*types.Tx) bool) [32]byte {
	for i := 0; i < 100_000; i++ {
		var b [32]byte
		binary.BigEndian.PutUint64(b[:], uint64(i))
		if ok(VRFOrder(b, txs)) {
			return b
		}
	}
	t.Fatal("no beacon gives the wanted order")
	return [32]byte{}
}

func indexOf(txs []*types.Tx, x *types.Tx) int {
	return slices.IndexFunc(txs, func(tx *types.Tx) bool { return tx.Hash() == x.Hash() })
}

// With no system, runner or due timer candidates every reservation spills:
// a block of user transactions alone reaches the 20,000,000-cycle cap.
func TestLaneSpillToUser(t *testing.T) {
	st := state.New(laneChain(t))
	res, err := Build(st, ctx(), userFlood(2_001))
	if err != nil {
		t.Fatal(err)
	}
	if res.CyclesUsed != fees.CapCycles || len(res.Txs) != 2_000 || len(res.Deferred) != 1 {
		t.Fatalf("used %d, included %d, deferred %d; want the cap, 2000, 1", res.CyclesUsed, len(res.Txs), len(res.Deferred))
	}
}

// A system-lane call whose limit is the whole system reservation gets in
// even when a flood of user transactions with higher tips comes before it
// in the block's order: the user lane stops at the cap less the unserved
// reservation (19,500,000 here) until the system lane has been served, and
// takes what it left after.
func TestSystemLaneUnderUserFlood(t *testing.T) {
	sys := registryTx(fees.LaneCycleBudget[fees.LaneSystem])
	cands := append(userFlood(2_000), sys)
	bc := ctx()
	bc.Beacon = beaconWhere(t, cands, func(o []*types.Tx) bool { return indexOf(o, sys) > 1_960 })
	st := state.New(laneChain(t))
	res, err := Build(st, bc, cands)
	if err != nil {
		t.Fatal(err)
	}
	if indexOf(res.Txs, sys) < 0 {
		t.Fatalf("system call left out (deferred %d)", len(res.Deferred))
	}
	if res.CyclesUsed > fees.CapCycles || len(res.Txs) < 1_950 {
		t.Fatalf("used %d with %d included", res.CyclesUsed, len(res.Txs))
	}
	// Before the system call: at most 19,500,000 cycles of user transactions.
	if n := indexOf(res.Txs, sys); uint64(n)*10_000 > fees.CapCycles-fees.LaneCycleBudget[fees.LaneSystem] {
		t.Fatalf("%d user transactions ran before the system lane was served", n)
	}
}

// The user lane takes a reserved lane's unused budget only once that lane
// has been served: a user transaction needing 19,600,000 cycles waits when
// it comes before a pending system call and fits when it comes after.
func TestReservedNotTakenBeforeServed(t *testing.T) {
	user := transferTx(func(tx *types.Tx) { tx.CyclesLimit = 19_600_000 })
	sys := registryTx(100_000)
	cands := []*types.Tx{user, sys}
	for _, tc := range []struct {
		name      string
		userFirst bool
	}{{"user before system", true}, {"user after system", false}} {
		t.Run(tc.name, func(t *testing.T) {
			bc := ctx()
			bc.Beacon = beaconWhere(t, cands, func(o []*types.Tx) bool { return (o[0] == user) == tc.userFirst })
			res, err := Build(state.New(laneChain(t)), bc, cands)
			if err != nil {
				t.Fatal(err)
			}
			included := indexOf(res.Txs, user) >= 0
			if included == tc.userFirst || indexOf(res.Txs, sys) < 0 {
				t.Fatalf("user included %v, system included %v", included, indexOf(res.Txs, sys) >= 0)
			}
		})
	}
	// The meter alone: the runner lane has no candidates (served), the
	// system lane one.
	m := newLaneMeter(fees.CapCycles, []*types.Tx{sys})
	if got := m.userRoom(); got != fees.CapCycles-fees.LaneCycleBudget[fees.LaneSystem] {
		t.Fatalf("user room before the system lane is served: %d", got)
	}
	m.done(fees.LaneSystem, fees.LaneSystem, 40_000)
	if got := m.userRoom(); got != fees.CapCycles-40_000 {
		t.Fatalf("user room after: %d", got)
	}
}

// The order is a function of the beacon and the set, keeps each sender's
// nonce order, and ignores the order the proposer listed them in.
func TestVRFOrder(t *testing.T) {
	var txs []*types.Tx
	for k := byte(1); k <= 4; k++ {
		key, _ := crypto.PrivateKeyFromBytes(append(make([]byte, 31), k))
		for n := uint64(0); n < 6; n++ {
			tx := transferTx(func(tx *types.Tx) { tx.Nonce = n })
			tx.Sign(key)
			txs = append(txs, tx)
		}
	}
	hashes := func(o []*types.Tx) []types.Hash {
		out := make([]types.Hash, len(o))
		for i, tx := range o {
			out[i] = tx.Hash()
		}
		return out
	}
	a, b := [32]byte{1}, [32]byte{2}
	oa := VRFOrder(a, txs)
	reversed := slices.Clone(txs)
	slices.Reverse(reversed)
	if !slices.Equal(hashes(oa), hashes(VRFOrder(a, reversed))) {
		t.Fatal("same beacon, same set, different order")
	}
	if slices.Equal(hashes(oa), hashes(VRFOrder(b, txs))) {
		t.Fatal("two beacons give the same order")
	}
	if slices.Equal(hashes(oa), hashes(txs)) {
		t.Fatal("the order is the input order")
	}
	for _, beacon := range [][32]byte{a, b} {
		next := map[types.Address]uint64{}
		for _, tx := range VRFOrder(beacon, reversed) {
			from, _ := tx.Sender()
			if tx.Nonce != next[from] {
				t.Fatalf("%s: nonce %d before %d", from, tx.Nonce, next[from])
			}
			next[from]++
		}
	}
}

// A validator re-executing a finalized block gets the proposer's result
// whatever order the payload lists the candidates in: ordering is part of
// the state transition.
func TestBuildOrderIndependent(t *testing.T) {
	cands := append(userFlood(30), registryTx(100_000))
	other := slices.Clone(cands)
	slices.Reverse(other)
	bc := ctx()
	bc.Beacon = [32]byte{7}
	var writes [2][]state.Write
	var orders [2][]types.Hash
	for i, in := range [][]*types.Tx{cands, other} {
		st := state.New(laneChain(t))
		res, err := Build(st, bc, in)
		if err != nil {
			t.Fatal(err)
		}
		if writes[i], err = st.Writes(); err != nil {
			t.Fatal(err)
		}
		for _, tx := range res.Txs {
			orders[i] = append(orders[i], tx.Hash())
		}
	}
	if !reflect.DeepEqual(writes[0], writes[1]) || !slices.Equal(orders[0], orders[1]) || len(orders[0]) != 31 {
		t.Fatal("proposer and validator disagree")
	}
}

// BenchmarkVRFOrder orders a block of 2,000 transfers from 20 senders
// (senders cached, as the pipeline has them).
func BenchmarkVRFOrder(b *testing.B) {
	var txs []*types.Tx
	for k := byte(1); k <= 20; k++ {
		key, _ := crypto.PrivateKeyFromBytes(append(make([]byte, 31), k))
		for n := uint64(0); n < 100; n++ {
			tx := transferTx(func(tx *types.Tx) { tx.Nonce = n })
			tx.Sign(key)
			tx.Sender()
			txs = append(txs, tx)
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		VRFOrder([32]byte{byte(i)}, txs)
	}
}
