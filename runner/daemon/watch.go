package daemon

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/cowboy-chain/cowboy/chain/system/runner"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/rpc"
	"github.com/cowboy-chain/cowboy/runner/executor"
)

// The daemon's work beyond its own jobs: watching other runners'
// economic_bond results during their challenge window and challenging the
// wrong ones (technical spec §5 "N-of-M with Dispute": "disputers may
// prove incorrect results within a fixed window"), and collecting what
// it earns: sweeping its balance above a reserve to a payout address and
// withdrawing its self-bond once it has unbonded after an exit.

// checkState is what the daemon did about another runner's job.
type checkState struct {
	Same      bool   `json:"same"`
	Status    uint8  `json:"status"`
	Challenge string `json:"challenge,omitempty"` // the challenge transaction's hash
}

func checkKey(id uint64) []byte { return []byte(fmt.Sprintf("check/%020d", id)) }

// maxWatched bounds the recent jobs one tick looks at.
const maxWatched = 100

// watch re-executes every economic_bond result in its challenge window
// that another runner gave for a model or domain this runner serves, once,
// and challenges it when its own answer differs (runner.SameAnswer, the
// comparison the chain's re-execution uses). A result it cannot
// reproduce (its own execution failed) is not challenged: that is no
// evidence.
func (d *Daemon) watch(ctx context.Context, me *rpc.RunnerJSON, params *rpc.RunnerParamsJSON, height uint64) error {
	limit := rpc.Quantity(maxWatched)
	jobs, err := d.cfg.RPC.Jobs(ctx, rpc.JobFilterJSON{Limit: &limit})
	if err != nil {
		return fmt.Errorf("jobs: %w", err)
	}
	var errs []error
	for i := len(jobs) - 1; i >= 0; i-- {
		j := &jobs[i]
		if !d.watchable(j, me, height) {
			continue
		}
		if err := d.check(ctx, j, params); err != nil {
			errs = append(errs, fmt.Errorf("check job %d: %w", uint64(j.ID), err))
		}
	}
	return errors.Join(errs...)
}

// watchable: an economic_bond success of another runner's, its payment
// held, unchallenged, its window open, on a model or domain served here.
func (d *Daemon) watchable(j *rpc.JobJSON, me *rpc.RunnerJSON, height uint64) bool {
	switch {
	case j.Trust != runner.TrustBond || j.Phase != "settled" || len(j.Members) != 1 || types.Address(j.Members[0]) == d.me:
		return false
	case (*big.Int)(&j.Held).Sign() == 0 || uint64(j.ChallengeJob) != 0 || height >= uint64(j.ChallengeEnd):
		return false
	case j.Kind == runner.KindLLM:
		return slices.Contains(me.Models, j.Model)
	case j.Kind == runner.KindHTTP:
		return slices.Contains(me.Domains, j.Domain)
	}
	return false
}

func (d *Daemon) check(ctx context.Context, j *rpc.JobJSON, params *rpc.RunnerParamsJSON) error {
	id := uint64(j.ID)
	var cs checkState
	found, err := d.st.get(checkKey(id), &cs)
	if err != nil || found {
		return err
	}
	r := d.cfg.Exec.Execute(ctx, executor.Job{ID: id, Kind: j.Kind, Model: j.Model, Input: j.Input,
		MaxTokens: uint64(j.MaxTokens), Seed: uint64(j.Seed), MaxWall: time.Duration(j.MaxWallMS) * time.Millisecond})
	d.stats.Checked.Add(1)
	cs.Status = r.Status
	cs.Same = r.Status != runner.StatusOK || runner.SameAnswer([]byte(j.Output), []byte(shown(r.Output)))
	if !cs.Same {
		// §13 challenge_bond plus max_price for the re-execution, which
		// this runner pays like any requester.
		v := new(big.Int).Add((*big.Int)(&params.ChallengeBond), (*big.Int)(&j.MaxPrice))
		h, err := SendTx(ctx, d.cfg.RPC, d.cfg.Key, d.chainID, runner.VerifierAddress, v, runner.Payload("challenge", id))
		if err != nil {
			return fmt.Errorf("challenge: %w", err)
		}
		cs.Challenge = h.Hex()
		d.stats.Challenges.Add(1)
		d.cfg.Log.Info("challenged a result", "job", id, "runner", types.Address(j.Members[0]), "tx", h)
	}
	return d.st.put(checkKey(id), &cs)
}

// shown renders an output as the node's job JSON does: the text when it
// is UTF-8, else 0x-hex.
func shown(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return "0x" + hex.EncodeToString(b)
}

// collect sends the runner's earnings on: the balance above Keep goes to
// Payout (when set, with no transaction of its own pending), and an
// exited runner's unbonded self-bond is withdrawn.
func (d *Daemon) collect(ctx context.Context, me *rpc.RunnerJSON, params *rpc.RunnerParamsJSON, height uint64) error {
	if me.Exiting && (*big.Int)(&me.SelfUnbonding).Sign() > 0 && height >= uint64(me.ExitAt)+uint64(params.UnbondingBlocks) {
		if err := d.once(ctx, runner.RegistryAddress, new(big.Int), runner.Payload("withdraw", d.me[:]), &d.stats.Withdrawals); err != nil {
			return fmt.Errorf("withdraw: %w", err)
		}
	}
	if d.cfg.Payout == (types.Address{}) {
		return nil
	}
	bal, err := d.cfg.RPC.Balance(ctx, d.me)
	if err != nil {
		return fmt.Errorf("balance: %w", err)
	}
	over := new(big.Int).Sub(bal, d.cfg.Keep)
	if over.Cmp(MinSweep) < 0 {
		return nil
	}
	if err := d.once(ctx, d.cfg.Payout, over, nil, &d.stats.Sweeps); err != nil {
		return fmt.Errorf("sweep to %s: %w", d.cfg.Payout, err)
	}
	d.cfg.Log.Info("swept earnings", "to", d.cfg.Payout, "amount", types.FormatCBY(over))
	return nil
}

// MinSweep is the least amount worth a sweep transaction: 1 CBY.
var MinSweep = new(big.Int).Set(runner.CBY)

// once sends a transaction unless one of the runner's is still pending
// (so a slow block never makes it send twice what it meant once).
func (d *Daemon) once(ctx context.Context, to types.Address, value *big.Int, payload []byte, n interface{ Add(uint64) uint64 }) error {
	pending, err := d.cfg.RPC.Nonce(ctx, d.me, true)
	if err != nil {
		return err
	}
	latest, err := d.cfg.RPC.Nonce(ctx, d.me, false)
	if err != nil {
		return err
	}
	if pending != latest {
		return nil
	}
	if _, err := SendTx(ctx, d.cfg.RPC, d.cfg.Key, d.chainID, to, value, payload); err != nil {
		return err
	}
	n.Add(1)
	return nil
}
