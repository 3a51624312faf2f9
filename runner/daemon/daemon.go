// Package daemon is the runner daemon (cmd/cowboy-runner start): it
// watches the chain for jobs whose committee it sits on, executes them,
// commits hash(result ‖ sig), pushes its signed result to the aggregator
// over HTTP (or, as the aggregator, collects the others' and reveals them
// together), reveals on its own when the aggregator is late, and keeps
// what it needs to survive a restart in Pebble (technical spec §5.3).
package daemon

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cowboy-chain/cowboy/chain/system/runner"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/rpc"
	"github.com/cowboy-chain/cowboy/runner/executor"
)

// Faults a daemon can be told to commit, so a devnet's simulated
// committee and the end-to-end test can exercise every failure path.
const (
	FaultNone    = ""
	FaultLie     = "lie"     // commits and reveals a wrong answer: slashed
	FaultTimeout = "timeout" // never commits: reputation penalty only
)

// pushHeaderTimeout bounds how long a push connection may take to send
// its request headers.
const pushHeaderTimeout = 5 * time.Second

// Config is one daemon.
type Config struct {
	Home   string // Pebble state under Home/state
	Key    *crypto.PrivateKey
	RPC    *rpc.Client
	Exec   executor.Executor
	Listen string        // address of the result push server ("127.0.0.1:0" picks a port)
	Poll   time.Duration // how often the chain is asked for jobs (default 200ms)
	Fault  string
	Log    *slog.Logger
	// Challenge makes the daemon re-execute other runners' economic_bond
	// results in their challenge window and challenge the wrong ones
	// (watch.go); it pays the bond and the re-execution.
	Challenge bool
	// Payout, when set, receives the runner's balance above Keep (its
	// reserve for fees, bonds and re-executions): its earnings.
	Payout types.Address
	Keep   *big.Int
}

// Daemon is a running runner.
type Daemon struct {
	cfg     Config
	me      types.Address
	st      *store
	ln      net.Listener
	srv     *http.Server
	chainID uint64
	mu      sync.Mutex // one tick at a time, pushes beside it
	stats   Stats
	params  *rpc.RunnerParamsJSON // fixed at genesis: read once
}

// Stats are the daemon's counters (GET /status, GET /metrics).
type Stats struct {
	Executed, Commits, Reveals, PushesSent, PushesReceived, Errors atomic.Uint64
	// Checked counts other runners' results re-executed, Challenges the
	// challenges filed, Sweeps the payouts, Withdrawals the self-bond
	// withdrawals.
	Checked, Challenges, Sweeps, Withdrawals atomic.Uint64
}

// Open opens the state and starts the push server.
func Open(cfg Config) (*Daemon, error) {
	if cfg.Key == nil || cfg.RPC == nil || cfg.Exec == nil {
		return nil, errors.New("runner daemon: key, rpc and executor are required")
	}
	if cfg.Poll <= 0 {
		cfg.Poll = 200 * time.Millisecond
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.Fault != FaultNone && cfg.Fault != FaultLie && cfg.Fault != FaultTimeout {
		return nil, fmt.Errorf("runner daemon: fault %q: want lie or timeout", cfg.Fault)
	}
	if cfg.Keep == nil {
		cfg.Keep = new(big.Int)
	}
	if cfg.Payout != (types.Address{}) && cfg.Keep.Cmp(MinSweep) < 0 {
		return nil, fmt.Errorf("runner daemon: a payout needs a reserve (keep) of at least %s for fees", types.FormatCBY(MinSweep))
	}
	st, err := openStore(filepath.Join(cfg.Home, "state"))
	if err != nil {
		return nil, err
	}
	d := &Daemon{cfg: cfg, me: types.Address(cfg.Key.Address()), st: st}
	if cfg.Listen != "" {
		ln, err := net.Listen("tcp", cfg.Listen)
		if err != nil {
			st.db.Close()
			return nil, fmt.Errorf("runner daemon: listen %s: %w", cfg.Listen, err)
		}
		d.ln = ln
		d.srv = &http.Server{Handler: d.handler(), ReadHeaderTimeout: pushHeaderTimeout}
		go d.srv.Serve(ln)
	}
	return d, nil
}

// Address is the runner's address.
func (d *Daemon) Address() types.Address { return d.me }

// URL is the push server's base URL, the endpoint to register.
func (d *Daemon) URL() string {
	if d.ln == nil {
		return ""
	}
	return "http://" + d.ln.Addr().String() + "/"
}

// Close stops the server and closes the state.
func (d *Daemon) Close() error {
	if d.srv != nil {
		d.srv.Close()
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.st.db.Close()
}

// Run polls the chain until ctx ends.
func (d *Daemon) Run(ctx context.Context) error {
	t := time.NewTicker(d.cfg.Poll)
	defer t.Stop()
	for {
		if err := d.Tick(ctx); err != nil && ctx.Err() == nil {
			d.stats.Errors.Add(1)
			d.cfg.Log.Warn("runner tick", "err", err)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

// Tick does one round of work on every open job of the daemon's.
func (d *Daemon) Tick(ctx context.Context) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.chainID == 0 {
		id, err := d.cfg.RPC.ChainID(ctx)
		if err != nil {
			return fmt.Errorf("chain id: %w", err)
		}
		d.chainID = id
	}
	me := rpc.Address(d.me)
	limit := rpc.Quantity(100)
	jobs, err := d.cfg.RPC.Jobs(ctx, rpc.JobFilterJSON{Member: &me, Open: true, Limit: &limit})
	if err != nil {
		return fmt.Errorf("jobs: %w", err)
	}
	height, err := d.cfg.RPC.BlockNumber(ctx)
	if err != nil {
		return fmt.Errorf("block number: %w", err)
	}
	var errs []error
	for i := len(jobs) - 1; i >= 0; i-- { // oldest first
		if err := d.work(ctx, &jobs[i], height); err != nil {
			errs = append(errs, fmt.Errorf("job %d: %w", uint64(jobs[i].ID), err))
		}
	}
	if err := d.others(ctx, height); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// others is the work beyond the runner's own jobs (watch.go): challenges
// when Challenge is set, and collecting its earnings.
func (d *Daemon) others(ctx context.Context, height uint64) error {
	me, err := d.cfg.RPC.Runner(ctx, d.me)
	if errors.Is(err, rpc.ErrNotFound) {
		return nil // not registered (yet, or any more): nothing to watch or collect
	}
	if err != nil {
		return fmt.Errorf("runner record: %w", err)
	}
	if d.params == nil {
		if d.params, err = d.cfg.RPC.RunnerParams(ctx); err != nil {
			return fmt.Errorf("runner parameters: %w", err)
		}
	}
	var errs []error
	if d.cfg.Challenge && d.cfg.Fault == FaultNone {
		errs = append(errs, d.watch(ctx, me, d.params, height))
	}
	errs = append(errs, d.collect(ctx, me, d.params, height))
	return errors.Join(errs...)
}

func (d *Daemon) index(j *rpc.JobJSON, a types.Address) int {
	for i, m := range j.Members {
		if types.Address(m) == a {
			return i
		}
	}
	return -1
}

// lie is the FaultLie answer: a different, well-formed result.
func lie(out []byte) []byte { return append([]byte("NOT "), out...) }

func (d *Daemon) work(ctx context.Context, j *rpc.JobJSON, height uint64) error {
	id := uint64(j.ID)
	i := d.index(j, d.me)
	if i < 0 {
		return nil
	}
	var js jobState
	found, err := d.st.get(jobKey(id), &js)
	if err != nil {
		return err
	}
	if !found {
		if d.cfg.Fault == FaultTimeout {
			js.Frozen = true
		} else {
			r := d.cfg.Exec.Execute(ctx, executor.Job{ID: id, Kind: j.Kind, Model: j.Model, Input: j.Input,
				MaxTokens: uint64(j.MaxTokens), Seed: uint64(j.Seed), MaxWall: time.Duration(j.MaxWallMS) * time.Millisecond})
			d.stats.Executed.Add(1)
			if d.cfg.Fault == FaultLie {
				r.Output = lie(r.Output)
			}
			sig, cm := runner.SignResult(d.cfg.Key, id, r.Status, r.Usage, r.Output)
			js = jobState{Status: r.Status, Output: r.Output, Usage: r.Usage, Sig: sig, Commitment: cm[:]}
		}
		// The result is kept before anything is sent, so a restart
		// reveals what was committed.
		if err := d.st.put(jobKey(id), &js); err != nil {
			return err
		}
	}
	if js.Frozen {
		return nil
	}
	committed := i < len(j.Commits) && len(j.Commits[i]) > 0
	if j.Phase == "committing" && !committed && (js.CommitAt == 0 || height >= js.CommitAt+3) {
		if _, err := d.send(ctx, runner.VerifierAddress, runner.Payload("commit", id, js.Commitment)); err != nil {
			return fmt.Errorf("commit: %w", err)
		}
		d.stats.Commits.Add(1)
		js.CommitAt = height
		return d.st.put(jobKey(id), &js)
	}
	if !committed {
		return nil
	}
	agg := types.Address(j.Aggregator)
	if agg != d.me && !js.Pushed {
		if err := d.push(ctx, agg, id, js); err != nil {
			d.cfg.Log.Debug("push to aggregator", "job", id, "err", err)
		} else {
			js.Pushed = true
			d.stats.PushesSent.Add(1)
			if err := d.st.put(jobKey(id), &js); err != nil {
				return err
			}
		}
	}
	if j.Phase != "revealing" || (js.RevealAt != 0 && height < js.RevealAt+3) {
		return nil
	}
	if i < len(j.Reveals) && j.Reveals[i] != nil {
		return nil
	}
	mine := []any{d.me[:], js.Status, js.Output, js.Usage, js.Sig}
	entries := []any{mine}
	if agg == d.me {
		ps, err := d.st.pushes(id)
		if err != nil {
			return err
		}
		for _, p := range ps {
			m, err := crypto.ParseAddress(p.Member)
			if err != nil {
				continue
			}
			k := d.index(j, m)
			if k < 0 || k >= len(j.Commits) || (k < len(j.Reveals) && j.Reveals[k] != nil) {
				continue
			}
			// Only results that match their on-chain commitment: a
			// bad push cannot spoil the aggregated reveal.
			if cm := runner.Commitment(p.Output, p.Sig); !bytes.Equal(cm[:], j.Commits[k]) {
				continue
			}
			entries = append(entries, []any{m[:], p.Status, p.Output, p.Usage, p.Sig})
		}
		// Wait for the committed members' pushes until the last block of
		// the aggregator window (aggregator_timeout_blocks), then reveal
		// what arrived; the missing members reveal on their own.
		want := 0
		for _, c := range j.Commits {
			if len(c) > 0 {
				want++
			}
		}
		if len(entries) < want && height+1 < uint64(j.IndividualReveals)-1 {
			return nil
		}
	} else if height < uint64(j.IndividualReveals) {
		return nil // the aggregator's turn: reveal alone only after it
	}
	// A transaction is at most 128 KiB (§12.1 max_tx_size): large results
	// go in several reveals of the aggregator's.
	for _, chunk := range chunks(entries, maxRevealBytes) {
		if _, err := d.send(ctx, runner.VerifierAddress, runner.Payload("reveal", id, chunk)); err != nil {
			return fmt.Errorf("reveal: %w", err)
		}
		d.stats.Reveals.Add(1)
	}
	js.RevealAt = height
	return d.st.put(jobKey(id), &js)
}

// maxRevealBytes keeps one reveal's outputs well under the 128 KiB
// transaction limit.
const maxRevealBytes = 96 << 10

// chunks splits reveal entries into groups whose outputs total at most
// limit bytes (an entry larger than that goes alone).
func chunks(entries []any, limit int) [][]any {
	var out [][]any
	var cur []any
	size := 0
	for _, e := range entries {
		n := len(e.([]any)[2].([]byte))
		if len(cur) > 0 && size+n > limit {
			out = append(out, cur)
			cur, size = nil, 0
		}
		cur = append(cur, e)
		size += n
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// push sends this runner's signed result to the aggregator's endpoint.
func (d *Daemon) push(ctx context.Context, agg types.Address, id uint64, js jobState) error {
	r, err := d.cfg.RPC.Runner(ctx, agg)
	if err != nil {
		return err
	}
	body, _ := json.Marshal(pushed{JobID: id, Member: d.me.Hex(), Status: js.Status, Output: js.Output, Usage: js.Usage, Sig: js.Sig})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(r.Endpoint, "/")+"/v1/results", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("aggregator %s: HTTP %d", agg, resp.StatusCode)
	}
	return nil
}

// send signs and sends a transaction from the runner's key.
func (d *Daemon) send(ctx context.Context, to types.Address, payload []byte) (types.Hash, error) {
	return SendTx(ctx, d.cfg.RPC, d.cfg.Key, d.chainID, to, new(big.Int), payload)
}

// SendTx signs a transaction from key with the node's fee estimate and
// its pending nonce, and sends it.
func SendTx(ctx context.Context, c *rpc.Client, key *crypto.PrivateKey, chainID uint64, to types.Address, value *big.Int, payload []byte) (types.Hash, error) {
	me := types.Address(key.Address())
	nonce, err := c.Nonce(ctx, me, true)
	if err != nil {
		return types.Hash{}, err
	}
	from, rto := rpc.Address(me), rpc.Address(to)
	est, err := c.EstimateFees(ctx, rpc.EstimateFeesArgs{From: &from, To: &rto, Value: rpc.NewBigQuantity(value), Payload: rpc.Bytes(payload)})
	if err != nil {
		return types.Hash{}, fmt.Errorf("estimate: %w", err)
	}
	tx := &types.Tx{ChainID: chainID, Nonce: nonce, To: &to, Value: value, Payload: payload,
		CyclesLimit: uint64(est.CyclesLimit), CellsLimit: uint64(est.CellsLimit),
		MaxFeePerCycle: uint64(est.MaxFeePerCycle), MaxFeePerCell: uint64(est.MaxFeePerCell),
		TipPerCycle: uint64(est.TipPerCycle), TipPerCell: uint64(est.TipPerCell)}
	tx.Sign(key)
	return c.SendRawTransaction(ctx, tx)
}

// handler serves POST /v1/results (pushes from committee peers), GET
// /status (JSON counters) and GET /metrics (Prometheus text).
func (d *Daemon) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/results", func(w http.ResponseWriter, r *http.Request) {
		var p pushed
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, runner.MaxResultBytes*2+4096)).Decode(&p); err != nil {
			http.Error(w, "bad push: "+err.Error(), http.StatusBadRequest)
			return
		}
		m, err := crypto.ParseAddress(p.Member)
		if err != nil {
			http.Error(w, "bad member", http.StatusBadRequest)
			return
		}
		// Authenticated by the member's signature over the result.
		if err := checkSig(p, types.Address(m)); err != nil {
			http.Error(w, err.Error(), http.StatusForbidden)
			return
		}
		j, err := d.cfg.RPC.Job(r.Context(), p.JobID)
		if err != nil {
			http.Error(w, err.Error(), http.StatusNotFound)
			return
		}
		if types.Address(j.Aggregator) != d.me || d.index(j, types.Address(m)) < 0 {
			http.Error(w, "not this job's aggregator, or not a member", http.StatusForbidden)
			return
		}
		if err := d.st.put(pushKey(p.JobID, types.Address(m).Hex()), &p); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		d.stats.PushesReceived.Add(1)
		w.WriteHeader(http.StatusOK)
	})
	mux.HandleFunc("GET /status", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(d.Status())
	})
	mux.HandleFunc("GET /metrics", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; version=0.0.4")
		s := d.Status()
		for _, m := range []struct {
			name string
			v    uint64
		}{{"executed", s.Executed}, {"commits", s.Commits}, {"reveals", s.Reveals}, {"pushes_sent", s.PushesSent},
			{"pushes_received", s.PushesReceived}, {"errors", s.Errors}, {"checked", s.Checked}, {"challenges", s.Challenges},
			{"sweeps", s.Sweeps}, {"withdrawals", s.Withdrawals}} {
			fmt.Fprintf(w, "# TYPE cowboy_runner_%s_total counter\ncowboy_runner_%s_total %d\n", m.name, m.name, m.v)
		}
	})
	return mux
}

func checkSig(p pushed, m types.Address) error {
	if len(p.Sig) != 65 {
		return errors.New("signature must be 65 bytes")
	}
	pub, err := crypto.Recover(runner.ResultDigest(p.JobID, p.Status, p.Usage, p.Output), p.Sig[64], [32]byte(p.Sig[:32]), [32]byte(p.Sig[32:64]))
	if err != nil || types.Address(crypto.PubkeyToAddress(pub)) != m {
		return errors.New("the signature is not the member's")
	}
	return nil
}

// StatusJSON is GET /status.
type StatusJSON struct {
	Runner         string `json:"runner"`
	Fault          string `json:"fault,omitempty"`
	Executed       uint64 `json:"executed"`
	Commits        uint64 `json:"commits"`
	Reveals        uint64 `json:"reveals"`
	PushesSent     uint64 `json:"pushesSent"`
	PushesReceived uint64 `json:"pushesReceived"`
	Errors         uint64 `json:"errors"`
	Checked        uint64 `json:"checked"`
	Challenges     uint64 `json:"challenges"`
	Sweeps         uint64 `json:"sweeps"`
	Withdrawals    uint64 `json:"withdrawals"`
	Payout         string `json:"payout,omitempty"`
}

// Status reports the counters.
func (d *Daemon) Status() StatusJSON {
	return StatusJSON{Runner: d.me.Hex(), Fault: d.cfg.Fault, Executed: d.stats.Executed.Load(), Commits: d.stats.Commits.Load(),
		Reveals: d.stats.Reveals.Load(), PushesSent: d.stats.PushesSent.Load(), PushesReceived: d.stats.PushesReceived.Load(),
		Errors: d.stats.Errors.Load(), Checked: d.stats.Checked.Load(), Challenges: d.stats.Challenges.Load(),
		Sweeps: d.stats.Sweeps.Load(), Withdrawals: d.stats.Withdrawals.Load(), Payout: d.payout()}
}

func (d *Daemon) payout() string {
	if d.cfg.Payout == (types.Address{}) {
		return ""
	}
	return d.cfg.Payout.Hex()
}
