package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"path/filepath"
	"strings"

	"github.com/cowboy-chain/cowboy/chain/system/staking"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/pvm"
	"github.com/cowboy-chain/cowboy/rpc"
)

// checkDeploySize refuses, before anything is asked of the node or signed,
// a deployment whose transaction would exceed max_tx_size (§1.2: the deploy
// transaction carries the whole source). Issue 16: a 5 MB source used to
// come back as "HTTP 413 Request Entity Too Large".
func checkDeploySize(file string, srcLen, payloadLen int) error {
	// The largest a transaction's other fields can encode to: every
	// integer at its widest and a signature.
	probe := &types.Tx{ChainID: math.MaxUint64, Nonce: math.MaxUint64, Value: new(big.Int).Lsh(big.NewInt(1), 255),
		Payload: make([]byte, payloadLen), CyclesLimit: math.MaxUint64, CellsLimit: math.MaxUint64,
		MaxFeePerCycle: math.MaxUint64, MaxFeePerCell: math.MaxUint64, TipPerCycle: math.MaxUint64, TipPerCell: math.MaxUint64}
	if n := probe.Size(); n > types.MaxTxSize {
		return fmt.Errorf("%s: source is %s, the limit is %s (max_tx_size: the deployment transaction, %s with this source, carries it whole); trim the actor or split it in two",
			file, byteSize(srcLen), byteSize(types.MaxTxSize), byteSize(n))
	}
	return nil
}

// byteSize prints a size the way people read it: 5.0 MiB, 128 KiB, 512 bytes.
func byteSize(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// renameActorFile puts the file the user deployed in place of the name
// actor code runs under on chain ("main.py, line 3" becomes "token.py,
// line 3"), so error lines point at a file the user has.
func (a *app) renameActorFile(msg string) string {
	if a.actorFile == "" || msg == "" {
		return msg
	}
	name := filepath.ToSlash(a.actorFile)
	r := strings.NewReplacer(pvm.ActorFile+", line", name+", line", `File "`+pvm.ActorFile+`"`, `File "`+name+`"`)
	return r.Replace(msg)
}

// mustBeActor refuses a call to an account without code before anything
// is signed or paid: sent, it would be a transfer that runs nothing and
// "succeeds" (issue 16). The validator registry is native, without code,
// and is let through.
func (a *app) mustBeActor(ctx context.Context, addr types.Address) error {
	if addr == staking.Address {
		return nil
	}
	var res *rpc.CodeJSON
	err := a.client().Call(ctx, &res, "cowboy_getCode", rpc.Address(addr))
	if errors.Is(err, rpc.ErrNotFound) || (err == nil && res == nil) {
		return noActorError(addr)
	}
	return err
}

func noActorError(addr types.Address) error {
	return fmt.Errorf("no actor at %s: the account holds no code (deploy one with `cowboy actor deploy`)", addr)
}
