// Package devnettest runs an in-process devnet for tests: deploy actors,
// call them in signed transactions, query them read-only, and read the
// receipts, through the same node code `cowboyd devnet` runs. Every
// transaction is mined into its own block at once.
package devnettest

import (
	"errors"
	"io"
	"log/slog"
	"math/big"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/chain/execution"
	"github.com/cowboy-chain/cowboy/chain/genesis"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/node"
	"github.com/cowboy-chain/cowboy/pvm/cbor"
	"github.com/cowboy-chain/cowboy/rpc"
)

// Chain is a devnet node in a temporary directory.
type Chain struct {
	t testing.TB
	// Node is the running node, for anything the helpers do not cover.
	Node *node.Node
}

// New opens a fresh devnet; it is closed when the test ends.
func New(t testing.TB) *Chain {
	t.Helper()
	clock := time.Unix(genesis.DevnetGenesisTime+100, 0)
	n, err := node.Open(node.Config{Home: t.TempDir(), Genesis: genesis.Devnet(),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Now:    func() time.Time { clock = clock.Add(time.Second); return clock }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close() })
	return &Chain{t: t, Node: n}
}

// Key is dev account i's key.
func (c *Chain) Key(i int) *crypto.PrivateKey {
	k, err := genesis.DevKey(i)
	if err != nil {
		c.t.Fatal(err)
	}
	return k
}

// Addr is dev account i's address.
func (c *Chain) Addr(i int) types.Address { return types.Address(c.Key(i).Address()) }

// Args encodes Go values as a call's canonical CBOR argument array.
func Args(t testing.TB, args ...any) []byte {
	t.Helper()
	if args == nil {
		args = []any{}
	}
	b, err := cbor.EncodeGo(args)
	if err != nil {
		t.Fatalf("encode args %v: %v", args, err)
	}
	return b
}

// Send signs a transaction from dev account `from` with the node's fee
// estimate, mines it and returns its receipt; a refusal fails the test.
func (c *Chain) Send(from int, to *types.Address, value *big.Int, payload []byte) *types.Receipt {
	c.t.Helper()
	if value == nil {
		value = new(big.Int)
	}
	key := c.Key(from)
	sender := types.Address(key.Address())
	est, err := c.Node.EstimateFees(&sender, to, value, payload)
	if errors.Is(err, execution.ErrWouldFail) {
		// Tests send failing transactions on purpose: give them room.
		bc, bb, _ := c.Node.Basefees()
		est = rpc.FeeEstimate{CyclesLimit: 2_000_000, CellsLimit: 100_000, MaxFeePerCycle: 2*bc + 1, MaxFeePerCell: 2*bb + 1, TipPerCycle: 1, TipPerCell: 1}
	} else if err != nil {
		c.t.Fatalf("estimate: %v", err)
	}
	nonce, err := c.Node.PendingNonce(types.Address(key.Address()))
	if err != nil {
		c.t.Fatal(err)
	}
	tx := &types.Tx{ChainID: c.Node.ChainID(), Nonce: nonce, To: to, Value: value, Payload: payload,
		CyclesLimit: est.CyclesLimit, CellsLimit: est.CellsLimit,
		MaxFeePerCycle: est.MaxFeePerCycle, MaxFeePerCell: est.MaxFeePerCell,
		TipPerCycle: est.TipPerCycle, TipPerCell: est.TipPerCell}
	tx.Sign(key)
	if err := c.Node.SendTransaction(tx); err != nil {
		c.t.Fatalf("send: %v", err)
	}
	if _, err := c.Node.ProduceBlock(); err != nil {
		c.t.Fatalf("produce block: %v", err)
	}
	rc, _, err := c.Node.Receipt(tx.Hash())
	if err != nil {
		c.t.Fatalf("receipt: %v", err)
	}
	return rc
}

// Deploy deploys src from dev account `from` with __init__ args and
// returns the receipt; Addr(rc) is the actor.
func (c *Chain) Deploy(from int, src []byte, value *big.Int, args ...any) *types.Receipt {
	c.t.Helper()
	pl, err := (&types.DeployPayload{Code: string(src), Salt: make([]byte, types.SaltSize), Args: Args(c.t, args...)}).Encode()
	if err != nil {
		c.t.Fatal(err)
	}
	return c.Send(from, nil, value, pl)
}

// MustDeploy deploys and fails the test unless it succeeded.
func (c *Chain) MustDeploy(from int, src []byte, value *big.Int, args ...any) types.Address {
	c.t.Helper()
	rc := c.Deploy(from, src, value, args...)
	if rc.Status != types.ReceiptSuccess || rc.ContractAddress == nil {
		c.t.Fatalf("deploy failed: %s", rc.Error)
	}
	return *rc.ContractAddress
}

// Call calls method on the actor at to in a transaction from dev account
// `from`.
func (c *Chain) Call(from int, to types.Address, value *big.Int, method string, args ...any) *types.Receipt {
	c.t.Helper()
	pl, err := (&types.CallPayload{Method: method, Args: Args(c.t, args...)}).Encode()
	if err != nil {
		c.t.Fatal(err)
	}
	return c.Send(from, &to, value, pl)
}

// MustCall calls and returns the decoded return value, failing the test
// unless the call succeeded.
func (c *Chain) MustCall(from int, to types.Address, method string, args ...any) any {
	c.t.Helper()
	rc := c.Call(from, to, nil, method, args...)
	if rc.Status != types.ReceiptSuccess {
		c.t.Fatalf("%s(%v) failed: %s", method, args, rc.Error)
	}
	return Return(c.t, rc)
}

// Query runs method read-only (cowboy_call) as dev account `from`.
func (c *Chain) Query(from int, to types.Address, method string, args ...any) *types.Receipt {
	c.t.Helper()
	pl, err := (&types.CallPayload{Method: method, Args: Args(c.t, args...)}).Encode()
	if err != nil {
		c.t.Fatal(err)
	}
	rc, err := c.Node.Call(rpc.CallRequest{From: c.Addr(from), To: &to, Payload: pl})
	if err != nil {
		c.t.Fatal(err)
	}
	return rc
}

// MustQuery queries and returns the decoded return value.
func (c *Chain) MustQuery(to types.Address, method string, args ...any) any {
	c.t.Helper()
	rc := c.Query(0, to, method, args...)
	if rc.Status != types.ReceiptSuccess {
		c.t.Fatalf("query %s(%v) failed: %s", method, args, rc.Error)
	}
	return Return(c.t, rc)
}

// Return decodes a receipt's return value (nil for none).
func Return(t testing.TB, rc *types.Receipt) any {
	t.Helper()
	if len(rc.ReturnData) == 0 {
		return nil
	}
	v, err := cbor.DecodeGo(rc.ReturnData)
	if err != nil {
		t.Fatalf("decode return value %x: %v", rc.ReturnData, err)
	}
	return v
}

// Balance is the latest committed balance of a.
func (c *Chain) Balance(a types.Address) *big.Int {
	_, b, err := c.Node.Account(a)
	if err != nil {
		c.t.Fatal(err)
	}
	return b
}
