package explorer_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/cowboy-chain/cowboy/chain/genesis"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/node"
	"github.com/cowboy-chain/cowboy/rpc"
)

// chromiumPath finds Debian's chromium, or skips the test saying how to
// get it.
func chromiumPath(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("chromium is not installed, so the explorer's browser test cannot run: `apt-get install chromium` (Debian; .ci/run does it)")
	return ""
}

// artifactDir is where the screenshot goes: $COWBOY_TEST_ARTIFACTS, else a
// new temporary directory that outlives the test (never the repository).
func artifactDir(t *testing.T) string {
	if d := os.Getenv("COWBOY_TEST_ARTIFACTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	d, err := os.MkdirTemp("", "cowboy-explorer-")
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// runningDevnet starts a devnet node that serves RPC and the explorer on
// a free port and makes a block whenever a transaction arrives.
func runningDevnet(t *testing.T) (*node.Node, string) {
	t.Helper()
	n, err := node.Open(node.Config{Home: t.TempDir(), Genesis: genesis.Devnet(), RPCAddr: "127.0.0.1:0",
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- n.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done; n.Close() })
	for deadline := time.Now().Add(60 * time.Second); n.RPCAddr() == ""; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the devnet did not start its RPC server within 60 s")
		}
	}
	return n, "http://" + n.RPCAddr()
}

// deploy sends a deployment from dev0 and waits for its receipt.
func deploy(t *testing.T, n *node.Node, src []byte, args []byte) (*types.Receipt, *rpc.TxLocation) {
	t.Helper()
	key, err := genesis.DevKey(0)
	if err != nil {
		t.Fatal(err)
	}
	pl, err := (&types.DeployPayload{Code: string(src), Salt: make([]byte, types.SaltSize), Args: args}).Encode()
	if err != nil {
		t.Fatal(err)
	}
	from := types.Address(key.Address())
	est, err := n.EstimateFees(&from, nil, new(big.Int), pl)
	if err != nil {
		t.Fatal(err)
	}
	nonce, err := n.PendingNonce(from)
	if err != nil {
		t.Fatal(err)
	}
	tx := &types.Tx{ChainID: n.ChainID(), Nonce: nonce, Value: new(big.Int), CyclesLimit: est.CyclesLimit, CellsLimit: est.CellsLimit,
		MaxFeePerCycle: est.MaxFeePerCycle, MaxFeePerCell: est.MaxFeePerCell, TipPerCycle: est.TipPerCycle, TipPerCell: est.TipPerCell, Payload: pl}
	tx.Sign(key)
	if err := n.SendTransaction(tx); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		rc, loc, err := n.Receipt(tx.Hash())
		if err == nil {
			return rc, loc
		}
		if !errors.Is(err, rpc.ErrNotFound) {
			t.Fatal(err)
		}
	}
	t.Fatal("no receipt for the deployment within 60 s")
	return nil, nil
}

// TestExplorerInBrowser drives headless chromium through the explorer as a
// user would: home → the deployment's block → the transaction → the actor
// it deployed (its source and storage show), then back home, where a block mined
// meanwhile appears live over the WebSocket. A screenshot of each step is
// written to $COWBOY_TEST_ARTIFACTS or a temporary directory.
func TestExplorerInBrowser(t *testing.T) {
	exe := chromiumPath(t)
	n, url := runningDevnet(t)
	src, err := os.ReadFile("../../examples/token/main.py")
	if err != nil {
		t.Fatal(err)
	}
	rc, loc := deploy(t, n, src, argsOf(t))
	if rc.Status != types.ReceiptSuccess || rc.ContractAddress == nil {
		t.Fatalf("deploy: %s", rc.Error)
	}
	actor := *rc.ContractAddress

	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.Headless,
		chromedp.DisableGPU, chromedp.WindowSize(1280, 900))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	bctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	if err := chromedp.Do(bctx); err != nil { // start the browser
		t.Fatalf("start chromium: %v", err)
	}
	// A bound for a browser that hangs, not a timing assertion.
	ctx, cancelTimeout := context.WithTimeout(bctx, 3*time.Minute)
	defer cancelTimeout()

	dir := artifactDir(t)
	shot := func(name string) chromedp.Action[chromedp.Void] {
		return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			buf, err := chromedp.FullScreenshot(100)(ctx, tg) // quality 100: PNG
			if err != nil {
				return err
			}
			p := filepath.Join(dir, "explorer-"+name+".png")
			t.Logf("screenshot: %s", p)
			return os.WriteFile(p, buf, 0o644)
		})
	}
	css := func(s string) chromedp.CSS { return chromedp.CSS(s) }
	blockLink := fmt.Sprintf(`#blocks a[href="/block/%d"]`, loc.Height)
	var source, txTitle, addr, storage string
	err = chromedp.Do(ctx,
		chromedp.Navigate(url+"/"),
		chromedp.WaitVisible(css(blockLink)),
		shot("home"),
		chromedp.Click(css(blockLink)),
		chromedp.WaitVisible(css(`#block-txs a.tx-link`)),
		chromedp.Click(css(`#block-txs a.tx-link`)),
		chromedp.WaitVisible(css(`#actor-link`)),
		into(&txTitle, chromedp.Text(css(`main h1`))),
		shot("tx"),
		chromedp.Click(css(`#actor-link`)),
		chromedp.WaitVisible(css(`#source`)),
		into(&source, chromedp.Text(css(`#source`))),
		into(&addr, chromedp.Text(css(`#address`))),
		into(&storage, chromedp.Text(css(`#storage`))),
		shot("actor"),
	)
	if err != nil {
		t.Fatalf("home → block → transaction → actor: %v", err)
	}
	if txTitle != "Transaction" || !strings.Contains(source, "class Token") || addr != actor.Hex() {
		t.Fatalf("transaction page %q, actor page %q with source %q", txTitle, addr, source[:min(len(source), 200)])
	}
	if !strings.Contains(storage, `"supply"`) || !strings.Contains(storage, `"symbol"`) {
		t.Fatalf("actor page's storage table: %q", storage)
	}

	// Live heads: once the page says it is subscribed, a new block shows
	// up in its table without a reload.
	if err := chromedp.Do(ctx,
		chromedp.Navigate(url+"/"),
		chromedp.WaitVisible(css(`#blocks`)),
		into(new(bool), chromedp.Poll[bool](`document.getElementById("live-status").textContent === "live"`)),
	); err != nil {
		t.Fatalf("the home page did not subscribe: %v", err)
	}
	mined, err := n.DevMine(1)
	if err != nil {
		t.Fatal(err)
	}
	row := fmt.Sprintf("#block-%d", mined[0].Height)
	var head string
	if err := chromedp.Do(ctx,
		chromedp.WaitVisible(css(row)),
		into(&head, chromedp.Text(css(`#head-height`))),
		shot("live"),
	); err != nil {
		t.Fatalf("block %d did not appear live: %v", mined[0].Height, err)
	}
	if head != fmt.Sprint(mined[0].Height) {
		t.Fatalf("head shows %s, want %d", head, mined[0].Height)
	}
}

// into runs a and keeps its value in dst, so that steps with values run
// in one chromedp.Do.
func into[T any](dst *T, a chromedp.Action[T]) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		v, err := a(ctx, tg)
		*dst = v
		return err
	})
}

// argsOf is the token's constructor arguments ("Gold", "GLD", 1000).
func argsOf(t *testing.T) []byte {
	t.Helper()
	b, err := rpc.ArgsCBOR([]json.RawMessage{json.RawMessage(`"Gold"`), json.RawMessage(`"GLD"`), json.RawMessage(`1000`)})
	if err != nil {
		t.Fatal(err)
	}
	return b
}
