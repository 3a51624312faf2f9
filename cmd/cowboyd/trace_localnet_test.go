package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/chain/genesis"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/rpc"
)

// dice reads the block's randomness (R_n: on a localnet the threshold
// beacon's, §3.4), which also orders the block's transactions, so a replay
// with any other R_n returns another value and the trace is refused.
const dice = `from cowboy_sdk import actor, randomness


@actor
class Dice:
    def __init__(self):
        self.storage["rolls"] = 0

    def roll(self):
        r = randomness("roll")
        self.storage["rolls"] += 1
        return r[0]

    def boom(self):
        n = self.storage["rolls"]
        raise ValueError("boom after %d rolls" % n)
`

// sendTx signs and sends a transaction from key with the node's estimate.
func sendTx(t *testing.T, c *rpc.Client, key *crypto.PrivateKey, nonce uint64, to *types.Address, payload []byte) types.Hash {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	chainID, err := c.ChainID(ctx)
	if err != nil {
		t.Fatal(err)
	}
	from := rpc.Address(key.Address())
	args := rpc.EstimateFeesArgs{From: &from, Payload: payload}
	if to != nil {
		a := rpc.Address(*to)
		args.To = &a
	}
	est, err := c.EstimateFees(ctx, args)
	if err != nil {
		t.Fatalf("estimate: %v", err)
	}
	tx := &types.Tx{ChainID: chainID, Nonce: nonce, To: to, Value: new(big.Int),
		CyclesLimit: uint64(est.CyclesLimit), CellsLimit: uint64(est.CellsLimit),
		MaxFeePerCycle: uint64(est.MaxFeePerCycle), MaxFeePerCell: uint64(est.MaxFeePerCell),
		TipPerCycle: uint64(est.TipPerCycle), TipPerCell: uint64(est.TipPerCell), Payload: payload}
	tx.Sign(key)
	h, err := c.SendRawTransaction(ctx, tx)
	if err != nil {
		t.Fatalf("send: %v", err)
	}
	return h
}

// TestLocalnetTraces runs "cowboyd localnet 4" as processes and traces, on
// every node, transactions of a validator network: a deployment, calls
// that read the beacon's randomness (several in one block, whose order the
// beacon fixes), and a call that fails with a Python error. Every node
// returns the same trace, each handler's cycles and cells are the
// receipt's, and `cowboy tx trace` prints it from any node. Epochs are 10
// blocks, so the traced blocks are in a later epoch than the first.
func TestLocalnetTraces(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cowboyd and cowboy and runs four processes")
	}
	dir := t.TempDir()
	bin, cli := filepath.Join(dir, "cowboyd"), filepath.Join(dir, "cowboy")
	for out, pkg := range map[string]string{bin: ".", cli: "../cowboy"} {
		if b, err := exec.Command("go", "build", "-o", out, pkg).CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", pkg, err, b)
		}
	}
	base := freePortBase(t)
	netDir := filepath.Join(dir, "net")
	lnet := exec.Command(bin, "localnet", "4", "--home", netDir, "--base-port", strconv.Itoa(base), "--block-time", "200ms", "--epoch-length", "10")
	var lout bytes.Buffer
	lnet.Stdout, lnet.Stderr = &lout, &lout
	if err := lnet.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		lnet.Process.Signal(syscall.SIGTERM)
		lnet.Wait()
		if t.Failed() {
			t.Logf("localnet output:\n%s", lout.String())
			for i := 0; i < 4; i++ {
				b, _ := os.ReadFile(filepath.Join(nodeHome(netDir, i), logFile))
				if len(b) > 3000 {
					b = b[len(b)-3000:]
				}
				t.Logf("node%d log tail:\n%s", i, b)
			}
		}
	}()
	urls := make([]string, 4)
	clients := make([]*rpc.Client, 4)
	for i := range clients {
		urls[i] = fmt.Sprintf("http://127.0.0.1:%d", base+i)
		clients[i] = rpc.NewClient(urls[i], nil)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute) // a bound for a hung network, not a timing assertion
	defer cancel()
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if h, err := clients[0].BlockNumber(ctx); err == nil && h >= 11 { // into epoch 1
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the localnet did not reach height 11 within 60 s")
		}
	}
	keys := make([]*crypto.PrivateKey, 4)
	for i := range keys {
		k, err := genesis.DevKey(i)
		if err != nil {
			t.Fatal(err)
		}
		keys[i] = k
	}
	// Deploy through node 0.
	pl, err := (&types.DeployPayload{Code: dice, Salt: make([]byte, types.SaltSize), Args: []byte{0x80}}).Encode()
	if err != nil {
		t.Fatal(err)
	}
	deploy := sendTx(t, clients[0], keys[0], 0, nil, pl)
	rc, err := clients[0].WaitReceipt(ctx, deploy, 50*time.Millisecond)
	if err != nil || rc.ContractAddress == nil {
		t.Fatalf("deploy: %v %+v", err, rc)
	}
	actor := types.Address(*rc.ContractAddress)
	// Each node estimates its roll against its own state: one that has not
	// applied the deployment yet sees no actor there and estimates a bare
	// transfer, whose limits cannot run the call.
	for i, c := range clients {
		for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			if h, err := c.BlockNumber(ctx); err == nil && h >= uint64(rc.BlockNumber) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("node %d did not apply the deployment's block %d within 60 s", i, uint64(rc.BlockNumber))
			}
		}
	}
	call := func(method string) []byte {
		p, err := (&types.CallPayload{Method: method, Args: []byte{0x80}}).Encode()
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	// Four rolls sent at once through different nodes, most likely into
	// one block, then a call that fails once included: its estimate would
	// refuse it, so it is sent with limits of its own.
	var rolls []types.Hash
	for i := 0; i < 4; i++ {
		nonce := uint64(0)
		if i == 0 {
			nonce = 1
		}
		rolls = append(rolls, sendTx(t, clients[i], keys[i], nonce, &actor, call("roll")))
	}
	for _, h := range rolls {
		if _, err := clients[0].WaitReceipt(ctx, h, 50*time.Millisecond); err != nil {
			t.Fatalf("roll %s: %v", h, err)
		}
	}
	chainID, _ := clients[0].ChainID(ctx)
	bf, err := clients[0].Basefees(ctx)
	if err != nil {
		t.Fatal(err)
	}
	boomTx := &types.Tx{ChainID: chainID, Nonce: 2, To: &actor, Value: new(big.Int), CyclesLimit: 2_000_000, CellsLimit: 10_000,
		MaxFeePerCycle: 10 * uint64(bf.Cycle), MaxFeePerCell: 10 * uint64(bf.Cell), TipPerCycle: 1, TipPerCell: 1, Payload: call("boom")}
	boomTx.Sign(keys[0])
	boom, err := clients[1].SendRawTransaction(ctx, boomTx)
	if err != nil {
		t.Fatalf("send boom: %v", err)
	}
	if rc, err := clients[1].WaitReceipt(ctx, boom, 50*time.Millisecond); err != nil || rc.Status != 0 {
		t.Fatalf("boom: %v, status %v", err, rc)
	}

	for _, h := range append(append([]types.Hash{deploy}, rolls...), boom) {
		var first []byte
		for i, c := range clients {
			// A node that has not applied the block yet does not know it.
			var tr *rpc.TraceJSON
			for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
				tr, err = c.TraceTransaction(ctx, h)
				if !errors.Is(err, rpc.ErrNotFound) || time.Now().After(deadline) {
					break
				}
			}
			if err != nil {
				t.Fatalf("node %d: trace %s: %v", i, h, err)
			}
			if len(tr.Handlers) == 0 {
				t.Fatalf("node %d: trace %s has no handlers", i, h)
			}
			var cycles, cells uint64
			for _, m := range tr.Receipt.Messages {
				cycles, cells = cycles+uint64(m.CyclesUsed), cells+uint64(m.CellsUsed)
			}
			var hc, hl uint64
			for _, hd := range tr.Handlers {
				hc, hl = hc+uint64(hd.CyclesUsed), hl+uint64(hd.CellsUsed)
			}
			if hc != cycles || hl != cells {
				t.Errorf("node %d: trace %s: handlers used %d cycles %d cells, the receipt's messages %d and %d", i, h, hc, hl, cycles, cells)
			}
			enc, _ := json.Marshal(tr)
			if i == 0 {
				first = enc
			} else if !bytes.Equal(enc, first) {
				t.Errorf("trace %s: node %d differs from node 0:\n%s\n%s", h, i, enc, first)
			}
		}
	}
	out, err := exec.Command(cli, "--rpc", urls[2], "tx", "trace", boom.String()).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "boom after 4 rolls") || !strings.Contains(string(out), "line 16") {
		t.Fatalf("cowboy tx trace on node 2: %v\n%s", err, out)
	}
}
