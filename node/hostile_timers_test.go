package node

import (
	"math/big"
	"os"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/fees"
	"github.com/cowboy-chain/cowboy/chain/timers"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/pvm/cbor"
)

// hostileChain drives a node block by block with signed transactions, the
// way a devnet producer does: into the mempool, selected, executed by
// executeBlock and committed.
type hostileChain struct {
	t *testing.T
	n *Node
}

// send signs a transaction from key with explicit limits and puts it in the
// mempool; it is mined by the next block.
func (c *hostileChain) send(key *crypto.PrivateKey, to *types.Address, value *big.Int, payload []byte, cycles, cells uint64) *types.Tx {
	c.t.Helper()
	nonce, err := c.n.PendingNonce(types.Address(key.Address()))
	if err != nil {
		c.t.Fatal(err)
	}
	if value == nil {
		value = new(big.Int)
	}
	tx := &types.Tx{ChainID: c.n.ChainID(), Nonce: nonce, To: to, Value: value, Payload: payload,
		CyclesLimit: cycles, CellsLimit: cells, MaxFeePerCycle: 10, MaxFeePerCell: 10, TipPerCycle: 1, TipPerCell: 1}
	tx.Sign(key)
	if err := c.n.SendTransaction(tx); err != nil {
		c.t.Fatalf("send: %v", err)
	}
	return tx
}

func (c *hostileChain) call(key *crypto.PrivateKey, to types.Address, method string, args ...any) *types.Tx {
	c.t.Helper()
	a, err := cbor.EncodeGo(args)
	if err != nil {
		c.t.Fatal(err)
	}
	pl, err := (&types.CallPayload{Method: method, Args: a}).Encode()
	if err != nil {
		c.t.Fatal(err)
	}
	return c.send(key, &to, nil, pl, 1_500_000, 100_000)
}

// receipt is tx's receipt; it must be in block height and have succeeded.
func (c *hostileChain) receipt(tx *types.Tx, height uint64) *types.Receipt {
	c.t.Helper()
	rc, loc, err := c.n.Receipt(tx.Hash())
	if err != nil || rc == nil || loc == nil {
		c.t.Fatalf("block %d: no receipt for %s: %v", height, tx.Hash(), err)
	}
	if loc.Height != height || rc.Status != types.ReceiptSuccess {
		c.t.Fatalf("block %d: tx in block %d, status %d: %s", height, loc.Height, rc.Status, rc.Error)
	}
	return rc
}

func (c *hostileChain) deploy(key *crypto.PrivateKey, file string, value *big.Int) types.Address {
	c.t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		c.t.Fatal(err)
	}
	pl, err := (&types.DeployPayload{Code: string(src), Salt: make([]byte, types.SaltSize), Args: []byte{0x80}}).Encode()
	if err != nil {
		c.t.Fatal(err)
	}
	tx := c.send(key, nil, value, pl, 5_000_000, 100_000)
	b := c.produce()
	rc := c.receipt(tx, b.Header.Height)
	return *rc.ContractAddress
}

func (c *hostileChain) produce() *types.Block {
	c.t.Helper()
	b, err := c.n.ProduceBlock()
	if err != nil {
		c.t.Fatal(err)
	}
	return b
}

func cbyUnits(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), big.NewInt(1e18)) }

// TestHostileTimersThroughBlocks is issue 13's hostile scenario on the
// node's block path: every call is a signed transaction that goes through
// the mempool into a produced, committed block. One actor aims 10,000
// timers at one height (20 blocks × 500 attempts) and another 100,000
// across heights (125 blocks × 800), while a user sends a transfer in
// every block. Then an honest actor, scheduled after the bomb (so every
// bomb timer has a lower id), aims one timer at the bombed height with a
// GBA that bids a tip.
//
// It checks: every user transfer is in the block it was sent for; no
// block passes its cycle or cell cap and no height's timer runs pass the
// timer lane; the bomber pays the exponential same-height surcharges,
// which are burned; the spreader stops at the per-actor cap; and at the
// bombed height the honest timer runs first (receipt index 0) ahead of
// bomb timers with lower ids.
func TestHostileTimersThroughBlocks(t *testing.T) {
	if testing.Short() {
		t.Skip("about 150 blocks with 110,000 set_timer attempts")
	}
	n := openTest(t, t.TempDir())
	defer n.Close()
	c := &hostileChain{t: t, n: n}
	bomberKey, spreaderKey, honestKey, user := devKey(t, 1), devKey(t, 2), devKey(t, 3), devKey(t, 4)
	bomber := c.deploy(bomberKey, "testdata/hostile_attacker.py", cbyUnits(1000))
	spreader := c.deploy(spreaderKey, "testdata/hostile_attacker.py", cbyUnits(1000))
	// Arriving after the bomb, the honest actor pays the same-height
	// surcharge of the (bombed+1)-th timer too: hundreds of CBY.
	honest := c.deploy(honestKey, "testdata/hostile_honest.py", cbyUnits(10_000))

	start := n.Head().Height + 1
	target := start + 140
	supply0, err := n.TotalSupply()
	if err != nil {
		t.Fatal(err)
	}
	bomber0 := c.balance(bomber)
	var bombed, spreadOK, spreadTried int64
	var honestTx *types.Tx
	for h := start; h <= target+2; h++ {
		var bombTx, spreadTx *types.Tx
		if h < start+20 {
			bombTx = c.call(bomberKey, bomber, "bomb", int64(target), int64(500))
		}
		if h < start+125 {
			spreadTx = c.call(spreaderKey, spreader, "spread", int64(target+1), int64(800), spreadTried)
			spreadTried += 800
		}
		if h == start+20 {
			honestTx = c.call(honestKey, honest, "arm", int64(target), honest.Hex())
		}
		userTx := c.send(user, &types.Address{0x77}, big.NewInt(1), []byte{}, fees.TransferCycles, 0)
		b := c.produce()
		if b.Header.Height != h {
			t.Fatalf("produced block %d, want %d", b.Header.Height, h)
		}
		if b.Header.CyclesUsed > fees.CapCycles || b.Header.CellsUsed > fees.CapCells {
			t.Fatalf("block %d over its caps: %d cycles, %d cells", h, b.Header.CyclesUsed, b.Header.CellsUsed)
		}
		c.receipt(userTx, h)
		if bombTx != nil {
			bombed += c.returned(c.receipt(bombTx, h))
		}
		if spreadTx != nil {
			spreadOK += c.returned(c.receipt(spreadTx, h))
		}
	}
	honestID := uint64(c.returned(c.receipt(honestTx, start+20)))

	// The bomb: the surcharge doubles after the 16th timer at a height, so
	// 1,000 CBY buys a few dozen of the 10,000.
	if bombed < 20 || bombed > 60 {
		t.Fatalf("the bomber got %d timers at one height", bombed)
	}
	surcharges := new(big.Int)
	for k := int64(1); k <= bombed; k++ {
		surcharges.Add(surcharges, timers.Surcharge(uint64(k)))
	}
	paid := new(big.Int).Sub(bomber0, c.balance(bomber))
	if paid.Cmp(surcharges) < 0 {
		t.Fatalf("bomber paid %s, its surcharges alone are %s", paid, surcharges)
	}
	supply, err := n.TotalSupply()
	if err != nil {
		t.Fatal(err)
	}
	if burned := new(big.Int).Sub(supply0, supply); burned.Cmp(surcharges) < 0 {
		t.Fatalf("burned %s < the bomber's surcharges %s", burned, surcharges)
	}
	// The spread: stopped at the per-actor cap (none of its timers is due
	// before the spreading ends, so none left the queue early).
	if spreadOK != timers.MaxPendingPerActor {
		t.Fatalf("the spreader got %d timers, the cap is %d", spreadOK, timers.MaxPendingPerActor)
	}
	if ts, err := n.TimersOf(spreader); err != nil || len(ts) > timers.MaxPendingPerActor {
		t.Fatalf("spreader has %d pending (%v)", len(ts), err)
	}

	// Timer runs per height, from the stored receipts: within the lane,
	// and the honest bid first at the bombed height.
	laneUsed := map[uint64]uint64{}
	var honestRC *timers.Receipt
	bombRanAtTarget := 0
	for id := uint64(1); id <= honestID+uint64(spreadOK); id++ {
		rcs, err := n.TimerReceipts(id)
		if err != nil {
			t.Fatal(err)
		}
		for i := range rcs {
			rc := &rcs[i]
			laneUsed[rc.Height] += rc.CyclesUsed
			switch {
			case rc.Owner == honest:
				honestRC = rc
			case rc.Owner == bomber && rc.Height == target:
				bombRanAtTarget++
				if rc.TimerID > honestID || rc.Index == 0 {
					t.Fatalf("bomb timer %d ran at index %d", rc.TimerID, rc.Index)
				}
			}
		}
	}
	for h, used := range laneUsed {
		if used > timers.TimerLaneCycles {
			t.Fatalf("timer runs at %d used %d cycles, the lane has %d", h, used, timers.TimerLaneCycles)
		}
	}
	if honestRC == nil || honestRC.Height != target || honestRC.Index != 0 || honestRC.TipPerCycle != 5 {
		t.Fatalf("the honest timer %d did not run first at the bombed height %d: %+v", honestID, target, honestRC)
	}
	if bombRanAtTarget == 0 || int64(bombRanAtTarget) >= bombed {
		t.Fatalf("%d of %d bomb timers ran at the bombed height: the honest one had no competition", bombRanAtTarget, bombed)
	}
	t.Logf("bomber: %d of 10,000 scheduled, paid %s base units (surcharges %s); spreader: %d of %d; at height %d the honest timer %d ran first, %d bomb timers after it",
		bombed, paid, surcharges, spreadOK, spreadTried, target, honestID, bombRanAtTarget)
}

func (c *hostileChain) balance(a types.Address) *big.Int {
	c.t.Helper()
	_, b, err := c.n.Account(a)
	if err != nil {
		c.t.Fatal(err)
	}
	return b
}

func (c *hostileChain) returned(rc *types.Receipt) int64 {
	c.t.Helper()
	v, err := cbor.DecodeGo(rc.ReturnData)
	if err != nil {
		c.t.Fatalf("return value %x: %v", rc.ReturnData, err)
	}
	i, ok := v.(int64)
	if !ok {
		c.t.Fatalf("return value %v is not an int", v)
	}
	return i
}
