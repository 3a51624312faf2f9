package node_test

import (
	"errors"
	"math/big"
	"os"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/node/devnettest"
	"github.com/cowboy-chain/cowboy/rpc"
)

// TestTraceTransaction traces an actor call whose message fails in the
// next handler: both handlers appear in the order they ran, with their
// pvm_host calls, and the failing one with its Python line; each
// handler's cycles and cells are exactly the receipt's (tracing changes no
// cost); a plain transfer has no handlers; an unknown hash is not found.
func TestTraceTransaction(t *testing.T) {
	c := devnettest.New(t)
	read := func(name string) []byte {
		b, err := os.ReadFile("testdata/trace/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	caller := c.MustDeploy(0, read("caller.py"), nil)
	callee := c.MustDeploy(0, read("callee.py"), nil)
	for _, tt := range []struct {
		name       string
		n          int64
		calleeFail bool
	}{{"ok", 3, false}, {"fails", -1, true}} {
		t.Run(tt.name, func(t *testing.T) {
			rc := c.Call(0, caller, nil, "go", callee.Hex(), tt.n)
			h := headTx(t, c)
			tr, err := c.Node.TraceTransaction(h)
			if err != nil {
				t.Fatal(err)
			}
			if len(tr.Handlers) != 2 || len(rc.Messages) != 2 {
				t.Fatalf("handlers %d, receipt messages %d, want 2", len(tr.Handlers), len(rc.Messages))
			}
			for i, hd := range tr.Handlers {
				m := rc.Messages[i]
				if uint64(hd.CyclesUsed) != m.CyclesUsed || uint64(hd.CellsUsed) != m.CellsUsed || hd.Method != m.Method || uint64(hd.Depth) != m.Depth {
					t.Errorf("handler %d: %s depth %d, %d cycles %d cells; the receipt says %s depth %d, %d cycles %d cells",
						i, hd.Method, hd.Depth, hd.CyclesUsed, hd.CellsUsed, m.Method, m.Depth, m.CyclesUsed, m.CellsUsed)
				}
			}
			names := func(hd *rpc.TraceHandlerJSON) string {
				var out []string
				for _, hc := range hd.HostCalls {
					out = append(out, hc.Name)
				}
				return strings.Join(out, " ")
			}
			if got := names(tr.Handlers[0]); !strings.Contains(got, "storage_get") || !strings.Contains(got, "storage_set") ||
				!strings.Contains(got, "emit_event") || !strings.Contains(got, "send_message") {
				t.Errorf("caller's host calls: %s", got)
			}
			for _, hc := range tr.Handlers[0].HostCalls {
				if hc.Name == "emit_event" && (len(hc.Args) == 0 || hc.Args[0] != `'Went'` || hc.Cycles == 0) {
					t.Errorf("emit_event call: %+v", hc)
				}
			}
			callee := tr.Handlers[1]
			if tt.calleeFail {
				if callee.Status != "failed" || !strings.Contains(callee.Error, "ValueError: no negative work") ||
					!strings.Contains(callee.Traceback, "line 12") {
					t.Errorf("failed callee: status %s, error %q, traceback %q", callee.Status, callee.Error, callee.Traceback)
				}
			} else if callee.Status != "success" || callee.Traceback != "" {
				t.Errorf("callee: %+v", callee)
			}
		})
	}
	to := c.Addr(1)
	c.Send(0, &to, big.NewInt(1), nil)
	if tr, err := c.Node.TraceTransaction(headTx(t, c)); err != nil || len(tr.Handlers) != 0 || tr.Receipt.Status != 1 {
		t.Fatalf("trace of a transfer: %+v %v", tr, err)
	}
	if _, err := c.Node.TraceTransaction([32]byte{9}); !errors.Is(err, rpc.ErrNotFound) {
		t.Fatalf("unknown hash: %v", err)
	}
}

// headTx is the one transaction of the head block (devnettest mines one
// block per transaction).
func headTx(t *testing.T, c *devnettest.Chain) types.Hash {
	t.Helper()
	b, err := c.Node.BlockByNumber(c.Node.Head().Height)
	if err != nil || len(b.Txs) != 1 {
		t.Fatalf("head block: %v", err)
	}
	return b.Txs[0].Hash()
}
