package node

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/rpc"
)

// devView is what a revert must restore: the head, the state root, every
// dev account's balance and nonce, the proposer's balance and the supply.
type devView struct {
	height    uint64
	hash      types.Hash
	root      [32]byte
	balances  []string
	nonces    []uint64
	supply    string
	proposer  string
	nextNonce uint64
}

func viewOf(t testing.TB, n *Node) devView {
	t.Helper()
	h := n.Head()
	v := devView{height: h.Height, hash: h.Hash(), root: h.StateRoot}
	for i := 0; i < 10; i++ {
		nonce, bal, err := n.Account(types.Address(devKey(t, i).Address()))
		if err != nil {
			t.Fatal(err)
		}
		v.balances = append(v.balances, bal.String())
		v.nonces = append(v.nonces, nonce)
	}
	_, pb, err := n.Account(n.Proposer())
	if err != nil {
		t.Fatal(err)
	}
	s, err := n.TotalSupply()
	if err != nil {
		t.Fatal(err)
	}
	v.supply, v.proposer = s.String(), pb.String()
	return v
}

// devStep is one random thing a developer does on a devnet.
// signedPayload signs a transaction with payload from key with the
// node's estimate and the pending nonce.
func signedPayload(tb testing.TB, n *Node, key *crypto.PrivateKey, to *types.Address, payload []byte) *types.Tx {
	tb.Helper()
	from := types.Address(key.Address())
	est, err := n.EstimateFees(&from, to, new(big.Int), payload)
	if err != nil {
		tb.Fatal(err)
	}
	nonce, err := n.PendingNonce(from)
	if err != nil {
		tb.Fatal(err)
	}
	tx := &types.Tx{ChainID: n.ChainID(), Nonce: nonce, To: to, Value: new(big.Int), CyclesLimit: est.CyclesLimit, CellsLimit: est.CellsLimit,
		MaxFeePerCycle: est.MaxFeePerCycle, MaxFeePerCell: est.MaxFeePerCell, TipPerCycle: est.TipPerCycle, TipPerCell: est.TipPerCell, Payload: payload}
	tx.Sign(key)
	return tx
}

// deployCounter deploys benchCounter from dev0 and returns its address.
func deployCounter(tb testing.TB, n *Node) types.Address {
	tb.Helper()
	pl, err := (&types.DeployPayload{Code: benchCounter, Salt: make([]byte, types.SaltSize)}).Encode()
	if err != nil {
		tb.Fatal(err)
	}
	tx := signedPayload(tb, n, devKey(tb, 0), nil, pl)
	if err := n.SendTransaction(tx); err != nil {
		tb.Fatal(err)
	}
	if _, err := n.ProduceBlock(); err != nil {
		tb.Fatal(err)
	}
	rc, _, err := n.Receipt(tx.Hash())
	if err != nil || rc.Status != types.ReceiptSuccess || rc.ContractAddress == nil {
		tb.Fatalf("deploy counter: %v %+v", err, rc)
	}
	return *rc.ContractAddress
}

// tb is the test's testing.TB for the helpers that take one; counter is
// an actor whose storage the steps change.
func devStep(t *rapid.T, tb testing.TB, n *Node, counter types.Address) {
	addr := func(label string) types.Address {
		return types.Address(devKey(tb, rapid.IntRange(0, 9).Draw(t, label)).Address())
	}
	switch rapid.IntRange(0, 5).Draw(t, "op") {
	case 5: // an actor call: storage, code and dedup records change
		call, err := (&types.CallPayload{Method: "increment"}).Encode()
		if err != nil {
			t.Fatal(err)
		}
		tx := signedPayload(tb, n, devKey(tb, rapid.IntRange(0, 9).Draw(t, "caller")), &counter, call)
		if err := n.SendTransaction(tx); err != nil {
			t.Fatalf("send call: %v", err)
		}
		if _, err := n.ProduceBlock(); err != nil {
			t.Fatal(err)
		}
	case 0, 1: // a transfer, mined
		from := devKey(tb, rapid.IntRange(0, 9).Draw(t, "from"))
		tx := signedTransfer(tb, n, from, addr("to"), big.NewInt(rapid.Int64Range(0, 1e15).Draw(t, "value")))
		if err := n.SendTransaction(tx); err != nil {
			t.Fatalf("send: %v", err)
		}
		if _, err := n.ProduceBlock(); err != nil {
			t.Fatal(err)
		}
	case 2:
		if _, err := n.DevSetBalance(addr("who"), big.NewInt(rapid.Int64Range(1e17, 1e18).Draw(t, "balance"))); err != nil {
			t.Fatal(err)
		}
	case 3:
		if _, err := n.DevFaucet(addr("who"), big.NewInt(rapid.Int64Range(1, 1e18).Draw(t, "amount"))); err != nil {
			t.Fatal(err)
		}
	case 4:
		if _, err := n.DevMine(uint64(rapid.IntRange(1, 3).Draw(t, "blocks"))); err != nil {
			t.Fatal(err)
		}
	}
}

// TestDevRevertProperty: random transfers, actor calls and devnet controls, a
// snapshot, more of them, then a revert (by height or by hash) gives back
// exactly the snapshot's chain: head, state root, balances, nonces and
// supply. Each case reverts to where it started, so cases are independent.
func TestDevRevertProperty(t *testing.T) {
	n := openTest(t, t.TempDir())
	defer n.Close()
	counter := deployCounter(t, n)
	rapid.Check(t, func(rt *rapid.T) {
		start, err := n.DevSnapshot()
		if err != nil {
			rt.Fatal(err)
		}
		defer n.DevRevert(start.Height, nil) // even a failed case leaves the chain as it found it
		for i := rapid.IntRange(0, 4).Draw(rt, "before"); i > 0; i-- {
			devStep(rt, t, n, counter)
		}
		snap, err := n.DevSnapshot()
		if err != nil {
			rt.Fatal(err)
		}
		want := viewOf(t, n)
		for i := rapid.IntRange(0, 6).Draw(rt, "after"); i > 0; i-- {
			devStep(rt, t, n, counter)
		}
		var h *types.Header
		if rapid.Bool().Draw(rt, "byHash") {
			hash := snap.Hash()
			h, err = n.DevRevert(0, &hash)
		} else {
			h, err = n.DevRevert(snap.Height, nil)
		}
		if err != nil {
			rt.Fatal(err)
		}
		if got := viewOf(t, n); !equalViews(got, want) || h.Hash() != snap.Hash() {
			rt.Fatalf("after revert:\n got %+v\nwant %+v", got, want)
		}
		// The chain goes on from the snapshot.
		devStep(rt, t, n, counter)
		if n.Head().Height <= snap.Height {
			rt.Fatalf("no block after the revert")
		}
	})
}

func equalViews(a, b devView) bool {
	ja, _ := json.Marshal([]any{a.height, a.hash, a.root, a.balances, a.nonces, a.supply, a.proposer})
	jb, _ := json.Marshal([]any{b.height, b.hash, b.root, b.balances, b.nonces, b.supply, b.proposer})
	return bytes.Equal(ja, jb)
}

// TestDevRevertAcrossRestart: a revert is on disk, and the blocks above
// it are gone, after the node is closed and opened again.
func TestDevRevertAcrossRestart(t *testing.T) {
	home := t.TempDir()
	n := openTest(t, home)
	to := types.Address(devKey(t, 1).Address())
	if _, err := n.DevFaucet(to, big.NewInt(5)); err != nil {
		t.Fatal(err)
	}
	snap := n.Head()
	want := viewOf(t, n)
	var gone []types.Hash
	for i := 0; i < 3; i++ {
		tx := signedTransfer(t, n, devKey(t, 0), to, big.NewInt(7))
		if err := n.SendTransaction(tx); err != nil {
			t.Fatal(err)
		}
		if _, err := n.ProduceBlock(); err != nil {
			t.Fatal(err)
		}
		gone = append(gone, tx.Hash())
	}
	if _, err := n.DevRevert(snap.Height, nil); err != nil {
		t.Fatal(err)
	}
	n.Close()
	n = openTest(t, home)
	defer n.Close()
	if got := viewOf(t, n); !equalViews(got, want) {
		t.Fatalf("after restart:\n got %+v\nwant %+v", got, want)
	}
	for _, h := range gone {
		if _, _, err := n.Receipt(h); !errors.Is(err, rpc.ErrNotFound) {
			t.Errorf("receipt of reverted tx %s: %v, want not found", h, err)
		}
	}
	if _, err := n.BlockByNumber(snap.Height + 1); !errors.Is(err, rpc.ErrNotFound) {
		t.Errorf("block above the snapshot: %v", err)
	}
	if _, err := n.ProduceBlock(); err != nil {
		t.Fatalf("produce after the restart: %v", err)
	}
}

// TestDevControls checks each control's effect and its refusals of bad
// input (which change nothing).
func TestDevControls(t *testing.T) {
	n := openTest(t, t.TempDir())
	defer n.Close()
	who := types.Address(devKey(t, 3).Address())
	if _, err := n.DevSetBalance(who, big.NewInt(42)); err != nil {
		t.Fatal(err)
	}
	if _, bal, _ := n.Account(who); bal.Int64() != 42 {
		t.Fatalf("balance after set: %s", bal)
	}
	supply, _ := n.TotalSupply()
	if _, err := n.DevFaucet(who, big.NewInt(8)); err != nil {
		t.Fatal(err)
	}
	if _, bal, _ := n.Account(who); bal.Int64() != 50 {
		t.Fatalf("balance after faucet: %s", bal)
	}
	if s, _ := n.TotalSupply(); new(big.Int).Sub(s, supply).Int64() != 8 {
		t.Fatalf("faucet changed the supply by %s, want 8", new(big.Int).Sub(s, supply))
	}
	t0 := n.Head().Time
	h, err := n.DevIncreaseTime(3600)
	if err != nil || h.Time < t0+3600 {
		t.Fatalf("increase time: %v, time %d after %d", err, h.Time, t0)
	}
	set := h.Time + 100_000
	if h, err = n.DevSetTime(set); err != nil || h.Time != set {
		t.Fatalf("set time to %d: %v %v", set, h, err)
	}
	if h, err = n.DevSetTime(set + 50); err != nil || h.Time != set+50 {
		t.Fatalf("set time to %d: %v %v", set+50, h, err)
	}
	if next, _ := n.ProduceBlock(); next.Header.Time < set+50 {
		t.Fatalf("the block after set-time went back to %d", next.Header.Time)
	}
	blocks, err := n.DevMine(3)
	if err != nil || len(blocks) != 3 || blocks[2].Height != n.Head().Height {
		t.Fatalf("mine 3: %v %v", blocks, err)
	}
	before := viewOf(t, n)
	for _, tt := range []struct {
		name string
		do   func() error
		want string
	}{
		{"mine 0", func() error { _, err := n.DevMine(0); return err }, "must be 1 to"},
		{"mine too many", func() error { _, err := n.DevMine(MaxDevMine + 1); return err }, "must be 1 to"},
		{"negative balance", func() error { _, err := n.DevSetBalance(who, big.NewInt(-1)); return err }, "negative"},
		{"faucet 0", func() error { _, err := n.DevFaucet(who, new(big.Int)); return err }, "more than 0"},
		{"faucet too much", func() error {
			_, err := n.DevFaucet(who, new(big.Int).Add(MaxFaucet, big.NewInt(1)))
			return err
		}, "at most"},
		{"time backwards", func() error { _, err := n.DevSetTime(1); return err }, "never goes backwards"},
		{"increase 0", func() error { _, err := n.DevIncreaseTime(0); return err }, "must be 1 to"},
		{"revert above head", func() error { _, err := n.DevRevert(n.Head().Height+1, nil); return err }, "above the head"},
		{"revert unknown hash", func() error { h := types.Hash{1}; _, err := n.DevRevert(0, &h); return err }, "not found"},
	} {
		if err := tt.do(); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want an error with %q", tt.name, err, tt.want)
		}
	}
	if got := viewOf(t, n); !equalViews(got, before) {
		t.Fatalf("a refused control changed the chain")
	}
}

// TestDevControlsRefusedOnANetwork: a validator-network node refuses every
// control, directly and over RPC with code -32010, and nothing changes.
func TestDevControlsRefusedOnANetwork(t *testing.T) {
	tn := newTestNet(t, 1)
	n := tn.open(0)
	defer n.Close()
	head := n.Head().Hash()
	a := types.Address{1}
	for name, do := range map[string]func() error{
		"mine":          func() error { _, err := n.DevMine(1); return err },
		"snapshot":      func() error { _, err := n.DevSnapshot(); return err },
		"revert":        func() error { _, err := n.DevRevert(0, nil); return err },
		"set balance":   func() error { _, err := n.DevSetBalance(a, big.NewInt(1)); return err },
		"faucet":        func() error { _, err := n.DevFaucet(a, big.NewInt(1)); return err },
		"set time":      func() error { _, err := n.DevSetTime(1 << 40); return err },
		"increase time": func() error { _, err := n.DevIncreaseTime(1); return err },
		"impersonate":   func() error { _, err := n.DevImpersonate(a, &a, big.NewInt(1), nil); return err },
	} {
		if err := do(); !errors.Is(err, rpc.ErrNotDevnet) {
			t.Errorf("%s on a network: %v, want ErrNotDevnet", name, err)
		}
	}
	srv := httptest.NewServer(n.rpcHandler())
	defer srv.Close()
	for _, req := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"dev_mine","params":["0x1"]}`,
		`{"jsonrpc":"2.0","id":1,"method":"dev_snapshot","params":[]}`,
		`{"jsonrpc":"2.0","id":1,"method":"dev_revert","params":["0x0"]}`,
		`{"jsonrpc":"2.0","id":1,"method":"dev_setBalance","params":["0x0000000000000000000000000000000000000001","0x1"]}`,
		`{"jsonrpc":"2.0","id":1,"method":"dev_faucet","params":["0x0000000000000000000000000000000000000001"]}`,
		`{"jsonrpc":"2.0","id":1,"method":"dev_setTime","params":["0x10000000000"]}`,
		`{"jsonrpc":"2.0","id":1,"method":"dev_increaseTime","params":["0x1"]}`,
		`{"jsonrpc":"2.0","id":1,"method":"dev_impersonate","params":["0x0000000000000000000000000000000000000001",{"to":"0x0000000000000000000000000000000000000002","value":"0x1"}]}`,
	} {
		resp, err := http.Post(srv.URL, "application/json", strings.NewReader(req))
		if err != nil {
			t.Fatal(err)
		}
		var r struct{ Error *rpc.Error }
		json.NewDecoder(resp.Body).Decode(&r)
		resp.Body.Close()
		if r.Error == nil || r.Error.Code != rpc.CodeNotDevnet || !strings.Contains(r.Error.Message, "only by a devnet") {
			t.Errorf("%s: %+v, want code %d", req, r.Error, rpc.CodeNotDevnet)
		}
	}
	if n.Head().Hash() != head {
		t.Fatal("a refused control moved the head")
	}
}
