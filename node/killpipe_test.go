package node

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/chain/genesis"
	"github.com/cowboy-chain/cowboy/chain/types"
)

// killPipeMaxTxs keeps the killed devnet's blocks small, so a round's
// transfers make a burst of blocks, each built while the one before it
// is synced (blockpipe.go), and the kill lands inside that overlap.
const killPipeMaxTxs = 12

// TestKillPipelineChild is the devnet process TestKillDuringPipeline
// kills; it runs only when the parent sets COWBOY_KILLPIPE_HOME.
func TestKillPipelineChild(t *testing.T) {
	home := os.Getenv("COWBOY_KILLPIPE_HOME")
	if home == "" {
		t.Skip("helper process for TestKillDuringPipeline")
	}
	n, err := Open(Config{Home: home, Genesis: genesis.Devnet(), Logger: quietLog(),
		RPCAddr: "127.0.0.1:0", BlockTime: 0, MaxBlockTxs: killPipeMaxTxs})
	if err != nil {
		fmt.Fprintln(os.Stderr, "child open:", err)
		os.Exit(3)
	}
	go n.Run(context.Background())
	for n.RPCAddr() == "" {
		time.Sleep(time.Millisecond)
	}
	if err := writeFileAtomic(filepath.Join(home, "rpc.addr"), []byte(n.RPCAddr())); err != nil {
		os.Exit(4)
	}
	select {} // until killed
}

// TestKillDuringPipeline sends a batch of transfers from several senders
// to a devnet child, so blocks are made back to back with the next built
// while one is synced, and kills it with SIGKILL once part of them have
// receipts, several times. After each kill the reopened chain must hold
// every receipt an RPC call returned, in the same block; its blocks must
// link from genesis to the head without a gap; and each sender's nonce in
// the state must equal its transfers in those blocks (the state and the
// blocks are from the same commit). The chain then continues.
func TestKillDuringPipeline(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	home := t.TempDir()
	senders := []int{3, 4, 5, 6, 7, 8, 9}
	nonces := make([]uint64, len(senders))
	var got []seen
	const perSender = 30
	for round := 0; round < 3; round++ {
		os.Remove(filepath.Join(home, "rpc.addr"))
		cmd := exec.Command(os.Args[0], "-test.run=^TestKillPipelineChild$")
		cmd.Env = append(os.Environ(), "COWBOY_KILLPIPE_HOME="+home)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		url := waitAddr(t, home, cmd, &stderr)
		var txs []*types.Tx
		var reqs []any
		for j := 0; j < perSender; j++ {
			for i, s := range senders {
				tx := pipeTransfer(t, s, nonces[i]+uint64(j))
				txs = append(txs, tx)
				reqs = append(reqs, map[string]any{"jsonrpc": "2.0", "id": len(reqs), "method": "cowboy_sendRawTransaction",
					"params": []any{"0x" + hex.EncodeToString(tx.Encode())}})
			}
		}
		for i := 0; i < len(reqs); i += 100 {
			for _, r := range batchCall(t, url, reqs[i:min(i+100, len(reqs))]) {
				if r.Error != nil {
					t.Fatalf("round %d: send: %s", round, r.Error.Message)
				}
			}
		}
		// Collect receipts until a third of the round's transfers have one,
		// then kill while the rest are being made into blocks.
		pending := map[types.Hash]bool{}
		for _, tx := range txs {
			pending[tx.Hash()] = true
		}
		deadline := time.Now().Add(60 * time.Second)
		for seenNow := 0; seenNow < len(txs)/3; {
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				t.Fatalf("round %d: %d of %d receipts after 60 s: %s", round, seenNow, len(txs), stderr.String())
			}
			var q []any
			var hs []types.Hash
			for h := range pending {
				q = append(q, map[string]any{"jsonrpc": "2.0", "id": len(q), "method": "cowboy_getTransactionReceipt", "params": []any{h.Hex()}})
				hs = append(hs, h)
				if len(q) == 100 {
					break
				}
			}
			for i, r := range batchCall(t, url, q) {
				var rc map[string]any
				if r.Error != nil || json.Unmarshal(r.Result, &rc) != nil || rc == nil {
					continue
				}
				got = append(got, seen{tx: hs[i], block: mustHash(t, rc["blockHash"].(string)), height: parseQ(t, rc["blockNumber"].(string))})
				delete(pending, hs[i])
				seenNow++
			}
		}
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()

		n := openTest(t, home)
		verifySeen(t, n, got)
		counts := verifyChainLinks(t, n)
		for i, s := range senders {
			a, _ := genesis.DevAddress(s)
			nonce, _, err := n.Account(a)
			if err != nil {
				t.Fatal(err)
			}
			if nonce != counts[a] {
				t.Fatalf("round %d: dev%d has nonce %d in the state but %d transfers in the blocks", round, s, nonce, counts[a])
			}
			nonces[i] = nonce
		}
		n.Close()
	}
	n := openTest(t, home)
	defer n.Close()
	replaySerially(t, n)
	head := n.Head()
	b, err := n.ProduceBlock()
	if err != nil || b.Header.ParentHash != head.Hash() {
		t.Fatalf("chain does not continue after the kills: %v", err)
	}
}

// verifyChainLinks checks that every block from 1 to the head is there
// and names the one before it as parent, and counts each sender's
// transactions in them.
func verifyChainLinks(t *testing.T, n *Node) map[types.Address]uint64 {
	t.Helper()
	counts := map[types.Address]uint64{}
	prev, err := n.BlockByNumber(0)
	if err != nil {
		t.Fatal(err)
	}
	head := n.Head()
	for h := uint64(1); h <= head.Height; h++ {
		b, err := n.BlockByNumber(h)
		if err != nil {
			t.Fatalf("block %d of %d missing: %v", h, head.Height, err)
		}
		if b.Header.ParentHash != prev.Header.Hash() {
			t.Fatalf("block %d does not link to block %d", h, h-1)
		}
		for _, tx := range b.Txs {
			from, err := tx.Sender()
			if err != nil {
				t.Fatal(err)
			}
			counts[from]++
		}
		prev = b
	}
	if prev.Header.Hash() != head.Hash() {
		t.Fatal("the head is not the last block")
	}
	return counts
}

func pipeTransfer(t *testing.T, dev int, nonce uint64) *types.Tx {
	to := types.Address{0x78, byte(dev)}
	tx := &types.Tx{ChainID: genesis.DevnetChainID, Nonce: nonce, To: &to, Value: big.NewInt(1),
		CyclesLimit: 10_000, MaxFeePerCycle: 100, MaxFeePerCell: 100, TipPerCycle: 1, Payload: []byte{}}
	tx.Sign(devKey(t, dev))
	return tx
}

type batchResp struct {
	ID     int             `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Message string `json:"message"`
	} `json:"error"`
}

// batchCall sends one JSON-RPC batch and returns the responses in
// request order (it numbers the requests' ids 0, 1, ...).
func batchCall(t *testing.T, url string, reqs []any) []batchResp {
	t.Helper()
	for i, r := range reqs {
		r.(map[string]any)["id"] = i
	}
	body, _ := json.Marshal(reqs)
	resp, err := http.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatalf("batch: %v", err)
	}
	defer resp.Body.Close()
	var rs []batchResp
	if err := json.NewDecoder(resp.Body).Decode(&rs); err != nil {
		t.Fatalf("batch: decode: %v", err)
	}
	out := make([]batchResp, len(reqs))
	for _, r := range rs {
		if r.ID < 0 || r.ID >= len(out) {
			t.Fatalf("batch: response id %d", r.ID)
		}
		out[r.ID] = r
	}
	return out
}
