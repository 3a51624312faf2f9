package main

import (
	"context"
	"fmt"
	"log/slog"
	"math/big"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/cowboy-chain/cowboy/chain/genesis"
	"github.com/cowboy-chain/cowboy/chain/system/runner"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/rpc"
	"github.com/cowboy-chain/cowboy/runner/daemon"
	"github.com/cowboy-chain/cowboy/runner/executor"
	"github.com/cowboy-chain/cowboy/runner/llmsim"
)

// SimModels are the models the devnet's simulated runners serve.
var SimModels = []string{"sim-1", "sim-2"}

// simKey is simulated runner i's key: public, like the dev accounts'.
func simKey(i int) (*crypto.PrivateKey, error) {
	h := crypto.Keccak256([]byte("cowboy/runner-sim/" + strconv.Itoa(i)))
	return crypto.PrivateKeyFromBytes(h[:])
}

// parseSimFaults reads --runner-sim-fault I=lie|timeout values.
func parseSimFaults(list []string, n int) (map[int]string, error) {
	out := map[int]string{}
	for _, f := range list {
		i, mode, ok := strings.Cut(f, "=")
		k, err := strconv.Atoi(i)
		if !ok || err != nil || k < 0 || k >= n || (mode != daemon.FaultLie && mode != daemon.FaultTimeout) {
			return nil, fmt.Errorf("--runner-sim-fault %q: want I=lie or I=timeout with 0 ≤ I < %d", f, n)
		}
		out[k] = mode
	}
	return out, nil
}

// startRunnerSim runs n runner daemons in this process against the
// devnet at rpcURL, answering LLM jobs with llmsim's deterministic rules:
// it funds each simulated runner from dev9, registers it (models sim-1 and
// sim-2, 0.01 CBY a job plus 0.0001 CBY a token) or updates its endpoint,
// and starts its daemon with its fault. The returned func stops them.
func startRunnerSim(ctx context.Context, home, rpcURL string, n int, faults map[int]string, log *slog.Logger) (string, func(), error) {
	llm, err := llmsim.Serve("127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	var ds []*daemon.Daemon
	stop := func() {
		cancel()
		for _, d := range ds {
			d.Close()
		}
		llm.Close()
	}
	c := rpc.NewClient(rpcURL, &http.Client{Timeout: 10 * time.Second})
	chainID, err := c.ChainID(ctx)
	if err != nil {
		stop()
		return "", nil, err
	}
	funder, err := genesis.DevKey(9)
	if err != nil {
		stop()
		return "", nil, err
	}
	wait := func(h types.Hash, what string) error {
		rc, err := c.WaitReceipt(ctx, h, 20*time.Millisecond)
		if err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		if uint64(rc.Status) != types.ReceiptSuccess {
			return fmt.Errorf("%s failed: %s", what, rc.Error)
		}
		return nil
	}
	rates := map[string]*big.Int{"per_job": big.NewInt(1e16), "per_token": big.NewInt(1e14), "per_kb": big.NewInt(1e14)}
	// Each stakes the chain's stake floor (at least 10,000 CBY, far above
	// 1.5 × its 1,000 CBY max job value) and keeps 1,000 CBY for fees.
	params, err := c.RunnerParams(ctx)
	if err != nil {
		stop()
		return "", nil, fmt.Errorf("runner parameters: %w", err)
	}
	stake := new(big.Int).Mul(big.NewInt(10_000), runner.CBY)
	if floor := (*big.Int)(&params.StakeFloor); floor.Cmp(stake) > 0 {
		stake.Set(floor)
	}
	fund := new(big.Int).Add(stake, new(big.Int).Mul(big.NewInt(1_000), runner.CBY))
	for i := 0; i < n; i++ {
		key, err := simKey(i)
		if err != nil {
			stop()
			return "", nil, err
		}
		d, err := daemon.Open(daemon.Config{Home: filepath.Join(home, "runners", fmt.Sprintf("sim%d", i)), Key: key, RPC: c,
			Exec: executor.Kinds{runner.KindLLM: &executor.LLM{URL: "http://" + llm.Addr().String()}}, Listen: "127.0.0.1:0",
			Poll: 100 * time.Millisecond, Fault: faults[i], Log: log.With("runner_sim", i)})
		if err != nil {
			stop()
			return "", nil, err
		}
		ds = append(ds, d)
		me := d.Address()
		rec, err := c.Runner(ctx, me)
		if err != nil { // not registered: fund and register
			h, err := daemon.SendTx(ctx, c, funder, chainID, me, fund, nil)
			if err == nil {
				err = wait(h, "fund simulated runner")
			}
			if err == nil {
				h, err = daemon.SendTx(ctx, c, key, chainID, runner.RegistryAddress, stake,
					runner.Payload("register", d.URL(), SimModels, []string{}, rates, new(big.Int).Mul(big.NewInt(1_000), runner.CBY), uint64(0)))
			}
			if err == nil {
				err = wait(h, "register simulated runner")
			}
			if err != nil {
				stop()
				return "", nil, fmt.Errorf("runner sim %d: %w", i, err)
			}
		} else if rec.Endpoint != d.URL() { // a restart: new port
			h, err := daemon.SendTx(ctx, c, key, chainID, runner.RegistryAddress, new(big.Int),
				runner.Payload("update", d.URL(), SimModels, []string{}, rates, new(big.Int).Mul(big.NewInt(1_000), runner.CBY), uint64(0)))
			if err == nil {
				err = wait(h, "update simulated runner")
			}
			if err != nil {
				stop()
				return "", nil, fmt.Errorf("runner sim %d: %w", i, err)
			}
		}
		go d.Run(ctx)
	}
	var desc []string
	for i, d := range ds {
		s := d.Address().Hex()
		if f := faults[i]; f != "" {
			s += " (" + f + ")"
		}
		desc = append(desc, s)
	}
	return strings.Join(desc, ", "), stop, nil
}
