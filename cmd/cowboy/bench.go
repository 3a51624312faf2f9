package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/cowboy-chain/cowboy/chain/fees"
	"github.com/cowboy-chain/cowboy/chain/genesis"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/rpc"
)

// benchBatch is how many requests go in one JSON-RPC batch: the server's
// default limit (rpc.DefaultMaxBatch).
const benchBatch = rpc.DefaultMaxBatch

// benchPerSender is how many transfers one sender gets at most: the
// mempool holds a sender's nonces up to 64 ahead of its account nonce
// (mempool.Config.MaxGap), and all transfers are sent before any commits.
const benchPerSender = 60

// benchConns is how many batches are in flight at once.
const benchConns = 4

// benchSpareBlocks is how many blocks beyond the full ones a run's max
// fees allow for (the funding rounds and blocks the node makes early,
// while batches still arrive).
const benchSpareBlocks = 16

// benchMaxFee is a max fee that stays at or above the basefee after
// blocks full blocks: the estimate's fee, raised as the basefee rises
// (fees.NextBasefee at the cycle cap).
func benchMaxFee(est, blocks uint64) uint64 {
	b := est
	for range blocks {
		b = fees.NextBasefee(b, fees.CapCycles, fees.TargetCycles)
	}
	return max(est, b)
}

type benchFlags struct {
	n, senders int
	timeout    time.Duration
}

// benchResult is what `cowboy bench transfers` prints; --json gives it as
// one object.
type benchResult struct {
	Sent      int     `json:"sent"`
	Committed int     `json:"committed"`
	Failed    int     `json:"failed"`
	Rejected  int     `json:"rejected"`
	TPS       float64 `json:"tps"`
	P50ms     float64 `json:"p50_ms"`
	P90ms     float64 `json:"p90_ms"`
	P99ms     float64 `json:"p99_ms"`
	MaxMs     float64 `json:"max_ms"`
	Seconds   float64 `json:"seconds"`
	Senders   int     `json:"senders"`
	Blocks    int     `json:"blocks"`
}

func (a *app) benchCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Load generators that measure a node",
	}
	var f benchFlags
	tr := &cobra.Command{
		Use:   "transfers [--n N] [--senders K]",
		Short: "Send N signed transfers as fast as the node takes them and measure committed transfers/s",
		Long: `Fund K fresh senders from the devnet's dev accounts, sign N transfers of 1
base unit up front (N/K per sender, round robin), send them in JSON-RPC
batches of cowboy_sendRawTransaction, and wait until every accepted one has
a receipt. Prints sent, committed, committed transfers/s (from the first
send to the block holding the last receipt being seen) and the latency
percentiles (send to seen in a block).

A sender holds at most 60 transfers (the mempool keeps 64 nonces per
sender), so --senders defaults to N/60 rounded up and must be at least
that. The node must run the devnet (chain id 7777): the dev keys pay.

With --json: one object with sent, committed, tps, p50_ms and p99_ms (and
failed, rejected, p90_ms, max_ms, seconds, senders, blocks).`,
		Example: `  cowboyd devnet --block-time 0 &
  cowboy bench transfers --n 20000
  cowboy --rpc http://127.0.0.1:8645 bench transfers --n 5000 --senders 100 --json`,
		Args: args(),
		RunE: func(cmd *cobra.Command, _ []string) error { return a.benchTransfers(cmd.Context(), &f) },
	}
	fl := tr.Flags()
	fl.IntVar(&f.n, "n", 10000, "number `N` of transfers to send")
	fl.IntVar(&f.senders, "senders", 0, "number `K` of senders (default N/60 rounded up)")
	fl.DurationVar(&f.timeout, "timeout", 5*time.Minute, "how long to wait for every receipt")
	cmd.AddCommand(tr)
	return cmd
}

// batchCall is one request of a JSON-RPC batch and its decoded answer.
type batchCall struct {
	method string
	params []any
	result json.RawMessage
	err    *rpc.Error
}

// callBatch sends calls as one JSON-RPC 2.0 batch and fills each call's
// result or error (matched by id; the server may answer in any order).
func callBatch(ctx context.Context, hc *http.Client, url string, calls []*batchCall) error {
	type req struct {
		JSONRPC string `json:"jsonrpc"`
		ID      int    `json:"id"`
		Method  string `json:"method"`
		Params  []any  `json:"params"`
	}
	reqs := make([]req, len(calls))
	for i, c := range calls {
		reqs[i] = req{"2.0", i, c.method, c.params}
	}
	body, err := json.Marshal(reqs)
	if err != nil {
		return fmt.Errorf("encode batch: %w", err)
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("batch: %w", err)
	}
	hr.Header.Set("Content-Type", "application/json")
	resp, err := hc.Do(hr)
	if err != nil {
		return fmt.Errorf("batch: %w", err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return fmt.Errorf("batch: read response: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("batch: HTTP %s: %s", resp.Status, bytes.TrimSpace(raw[:min(len(raw), 200)]))
	}
	var out []struct {
		ID     *int            `json:"id"`
		Result json.RawMessage `json:"result"`
		Error  *rpc.Error      `json:"error"`
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return fmt.Errorf("batch: decode response (%s): %w", bytes.TrimSpace(raw[:min(len(raw), 200)]), err)
	}
	seen := 0
	for _, o := range out {
		if o.ID == nil || *o.ID < 0 || *o.ID >= len(calls) {
			return fmt.Errorf("batch: response with an unknown id")
		}
		calls[*o.ID].result, calls[*o.ID].err = o.Result, o.Error
		seen++
	}
	if seen != len(calls) {
		return fmt.Errorf("batch: %d answers to %d requests", seen, len(calls))
	}
	return nil
}

func (a *app) benchTransfers(ctx context.Context, f *benchFlags) error {
	if f.n <= 0 {
		return fmt.Errorf("--n %d: want at least 1 transfer", f.n)
	}
	need := (f.n + benchPerSender - 1) / benchPerSender
	if f.senders == 0 {
		f.senders = need
	}
	if f.senders < need || f.senders > f.n {
		return fmt.Errorf("--senders %d: want from %d (each sender holds at most %d transfers) to %d (--n)", f.senders, need, benchPerSender, f.n)
	}
	c := a.client()
	url := c.URL()
	hc := &http.Client{Timeout: requestTimeout}
	chainID, err := c.ChainID(ctx)
	if err != nil {
		return fmt.Errorf("ask the node for its chain id: %w", err)
	}
	if chainID != genesis.DevnetChainID {
		return fmt.Errorf("the node at %s runs chain id %d, not the devnet's %d: bench pays with the dev keys", url, chainID, genesis.DevnetChainID)
	}
	dev0, err := genesis.DevAddress(0)
	if err != nil {
		return err
	}
	rto := rpc.Address(dev0)
	est, err := c.EstimateFees(ctx, rpc.EstimateFeesArgs{From: &rto, To: &rto, Value: rpc.NewBigQuantity(big.NewInt(1)), Payload: rpc.Bytes{}})
	if err != nil {
		return fmt.Errorf("estimate fees: %w", err)
	}
	// The run's own full blocks raise the basefees (§4.2), and a transfer
	// whose max fee falls below them is refused at admission or waits in
	// the pool forever: price for the most the run can raise them.
	full := uint64(f.n)/(fees.CapCycles/fees.TransferCycles) + benchSpareBlocks
	est.MaxFeePerCycle = rpc.Quantity(benchMaxFee(uint64(est.MaxFeePerCycle), full))
	est.MaxFeePerCell = rpc.Quantity(benchMaxFee(uint64(est.MaxFeePerCell), full))
	mkTx := func(nonce uint64, to types.Address, value *big.Int) *types.Tx {
		return &types.Tx{ChainID: chainID, Nonce: nonce, To: &to, Value: value, Payload: []byte{},
			CyclesLimit: uint64(est.CyclesLimit), CellsLimit: uint64(est.CellsLimit),
			TipPerCycle: uint64(est.TipPerCycle), MaxFeePerCycle: uint64(est.MaxFeePerCycle),
			TipPerCell: uint64(est.TipPerCell), MaxFeePerCell: uint64(est.MaxFeePerCell)}
	}
	maxCost := new(big.Int).Add(
		new(big.Int).Mul(new(big.Int).SetUint64(uint64(est.MaxFeePerCycle)), new(big.Int).SetUint64(uint64(est.CyclesLimit))),
		new(big.Int).Mul(new(big.Int).SetUint64(uint64(est.MaxFeePerCell)), new(big.Int).SetUint64(uint64(est.CellsLimit))))
	maxCost.Add(maxCost, big.NewInt(1)) // the value

	// Fresh senders, funded from dev0…dev9 in rounds that stay inside the
	// pool's nonce window.
	keys := make([]*crypto.PrivateKey, f.senders)
	for i := range keys {
		if keys[i], err = crypto.GenerateKey(); err != nil {
			return err
		}
	}
	per := (f.n + f.senders - 1) / f.senders
	fund := new(big.Int).Mul(maxCost, big.NewInt(int64(per+1)))
	if !a.jsonOut {
		fmt.Fprintf(a.stderr, "Funding %d senders from the dev accounts\n", f.senders)
	}
	for start := 0; start < f.senders; start += 10 * benchPerSender {
		end := min(start+10*benchPerSender, f.senders)
		var txs []*types.Tx
		nonces := map[int]uint64{}
		for i := start; i < end; i++ {
			d := i % 10
			dk, err := genesis.DevKey(d)
			if err != nil {
				return err
			}
			if _, ok := nonces[d]; !ok {
				if nonces[d], err = c.Nonce(ctx, types.Address(dk.Address()), true); err != nil {
					return fmt.Errorf("nonce of dev%d: %w", d, err)
				}
			}
			tx := mkTx(nonces[d], types.Address(keys[i].Address()), fund)
			nonces[d]++
			tx.Sign(dk)
			txs = append(txs, tx)
		}
		_, _, _, _, rejected, firstErr, err := sendAndWait(ctx, c, hc, txs, f.timeout)
		if err != nil {
			return fmt.Errorf("funding: %w", err)
		}
		if rejected > 0 {
			return fmt.Errorf("funding: the node refused %d of %d transfers: %v", rejected, len(txs), firstErr)
		}
	}

	// Sign everything up front, on all cores; round robin over senders so
	// that the earliest batches hold every sender's first nonces.
	txs := make([]*types.Tx, f.n)
	for i := range txs {
		txs[i] = mkTx(uint64(i/f.senders), types.Address(keys[(i+1)%f.senders].Address()), big.NewInt(1))
	}
	var wg sync.WaitGroup
	workers := runtime.GOMAXPROCS(0)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < len(txs); i += workers {
				txs[i].Sign(keys[i%f.senders])
			}
		}(w)
	}
	wg.Wait()

	if !a.jsonOut {
		fmt.Fprintf(a.stderr, "Sending %d transfers from %d senders in batches of %d\n", f.n, f.senders, benchBatch)
	}
	fo, sent, sentAt, start, rejected, firstErr, err := sendAndWait(ctx, c, hc, txs, f.timeout)
	if err != nil {
		if rejected > 0 {
			// A refused nonce strands the sender's later ones.
			return fmt.Errorf("%w (the node refused %d transfers, first: %v)", err, rejected, firstErr)
		}
		return err
	}
	seenAt, blocks := fo.seen, fo.blocks
	// Every accepted transfer has a receipt: check each one (batched).
	committed, failed := 0, 0
	for i := 0; i < len(sent); i += benchBatch {
		calls := make([]*batchCall, 0, benchBatch)
		for _, h := range sent[i:min(i+benchBatch, len(sent))] {
			calls = append(calls, &batchCall{method: "cowboy_getTransactionReceipt", params: []any{rpc.Hash(h)}})
		}
		if err := callBatch(ctx, hc, url, calls); err != nil {
			return fmt.Errorf("receipts: %w", err)
		}
		for _, cl := range calls {
			if cl.err != nil || len(cl.result) == 0 || string(cl.result) == "null" {
				continue
			}
			var r rpc.ReceiptJSON
			if err := json.Unmarshal(cl.result, &r); err != nil {
				return fmt.Errorf("receipt: %w", err)
			}
			committed++
			if !r.Succeeded() {
				failed++
			}
		}
	}
	var last time.Time
	lat := make([]float64, 0, len(seenAt))
	for h, t := range seenAt {
		if t.After(last) {
			last = t
		}
		lat = append(lat, float64(t.Sub(sentAt[h]).Microseconds())/1000)
	}
	slices.Sort(lat)
	pct := func(p float64) float64 {
		if len(lat) == 0 {
			return 0
		}
		return lat[min(len(lat)-1, int(p*float64(len(lat))))]
	}
	res := benchResult{Sent: len(sent), Committed: committed, Failed: failed, Rejected: rejected,
		P50ms: pct(0.50), P90ms: pct(0.90), P99ms: pct(0.99), Senders: f.senders, Blocks: blocks}
	if len(lat) > 0 {
		res.MaxMs = lat[len(lat)-1]
		res.Seconds = last.Sub(start).Seconds()
		res.TPS = float64(committed) / res.Seconds
	}
	if a.jsonOut {
		if err := a.printJSON(res); err != nil {
			return err
		}
	} else {
		t := newTable(a.stdout)
		t.row("Sent", "%d", res.Sent)
		t.row("Committed", "%d (%d failed)", res.Committed, res.Failed)
		t.row("Rejected", "%d", res.Rejected)
		t.row("Transfers/s", "%.0f committed (%d blocks in %.2fs)", res.TPS, res.Blocks, res.Seconds)
		t.row("Latency", "p50 %.0f ms, p90 %.0f ms, p99 %.0f ms, max %.0f ms", res.P50ms, res.P90ms, res.P99ms, res.MaxMs)
		if err := t.flush(); err != nil {
			return err
		}
	}
	if rejected > 0 {
		return fmt.Errorf("the node refused %d of %d transfers: %v", rejected, f.n, firstErr)
	}
	if committed != len(sent) {
		return fmt.Errorf("%d of %d accepted transfers have no receipt", len(sent)-committed, len(sent))
	}
	return nil
}

// sendAll sends txs in order in batches, benchConns batches in flight,
// and returns the hashes the node accepted and its refusals (counted, the
// first reason kept). sentAt, if not nil, gets each accepted hash's send
// time. A transport error is err.
func sendAll(ctx context.Context, hc *http.Client, url string, txs []*types.Tx, sentAt map[types.Hash]time.Time) (accepted []types.Hash, rejected int, firstReject, err error) {
	type result struct {
		hashes []types.Hash
		at     time.Time
		rej    int
		first  error
		err    error
	}
	nb := (len(txs) + benchBatch - 1) / benchBatch
	results := make([]result, nb)
	var wg sync.WaitGroup
	sem := make(chan struct{}, benchConns)
	for b := 0; b < nb; b++ {
		sem <- struct{}{}
		wg.Add(1)
		go func(b int) {
			defer func() { <-sem; wg.Done() }()
			part := txs[b*benchBatch : min((b+1)*benchBatch, len(txs))]
			calls := make([]*batchCall, len(part))
			for i, tx := range part {
				calls[i] = &batchCall{method: "cowboy_sendRawTransaction", params: []any{rpc.Bytes(tx.Encode())}}
			}
			r := &results[b]
			r.at = time.Now()
			if r.err = callBatch(ctx, hc, url, calls); r.err != nil {
				return
			}
			for i, cl := range calls {
				if cl.err != nil {
					r.rej++
					if r.first == nil {
						r.first = cl.err
					}
					continue
				}
				r.hashes = append(r.hashes, part[i].Hash())
			}
		}(b)
	}
	wg.Wait()
	for _, r := range results {
		if r.err != nil && err == nil {
			err = r.err
		}
		rejected += r.rej
		if firstReject == nil {
			firstReject = r.first
		}
		for _, h := range r.hashes {
			accepted = append(accepted, h)
			if sentAt != nil {
				sentAt[h] = r.at
			}
		}
	}
	return accepted, rejected, firstReject, err
}

// follower reads every new block from a start height on and notes when
// each transaction of interest was first seen in one, while the sends go
// on, so a latency is send → block seen, not send → end of sending.
type follower struct {
	c    *rpc.Client
	next uint64

	mu     sync.Mutex
	want   map[types.Hash]bool
	seen   map[types.Hash]time.Time
	blocks int
	err    error
}

func newFollower(ctx context.Context, c *rpc.Client, txs []*types.Tx) (*follower, error) {
	head, err := c.BlockNumber(ctx)
	if err != nil {
		return nil, fmt.Errorf("block number: %w", err)
	}
	fo := &follower{c: c, next: head + 1, want: make(map[types.Hash]bool, len(txs)), seen: make(map[types.Hash]time.Time, len(txs))}
	for _, tx := range txs {
		fo.want[tx.Hash()] = true
	}
	return fo, nil
}

// run follows the chain until ctx ends or a read fails.
func (fo *follower) run(ctx context.Context) {
	for ctx.Err() == nil {
		head, err := fo.c.BlockNumber(ctx)
		for ; err == nil && fo.next <= head; fo.next++ {
			var b *rpc.BlockJSON
			if b, err = fo.c.BlockByNumber(ctx, rpc.BlockAt(fo.next), false); err != nil {
				break
			}
			now := time.Now()
			fo.mu.Lock()
			hit := false
			for _, h := range b.Transactions.Hashes {
				if fo.want[types.Hash(h)] {
					delete(fo.want, types.Hash(h))
					fo.seen[types.Hash(h)] = now
					hit = true
				}
			}
			if hit {
				fo.blocks++
			}
			fo.mu.Unlock()
		}
		if err != nil {
			if ctx.Err() == nil {
				fo.mu.Lock()
				fo.err = err
				fo.mu.Unlock()
			}
			return
		}
		select {
		case <-ctx.Done():
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// wait returns once every hash in accepted has been seen in a block.
func (fo *follower) wait(ctx context.Context, accepted []types.Hash) error {
	for {
		fo.mu.Lock()
		missing, err := 0, fo.err
		for _, h := range accepted {
			if _, ok := fo.seen[h]; !ok {
				missing++
			}
		}
		fo.mu.Unlock()
		if err != nil {
			return fmt.Errorf("following blocks: %w", err)
		}
		if missing == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%d of %d accepted transfers are still not in a block: %w", missing, len(accepted), ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// sendAndWait sends txs and waits until the accepted ones are in blocks.
func sendAndWait(ctx context.Context, c *rpc.Client, hc *http.Client, txs []*types.Tx, timeout time.Duration) (fo *follower, accepted []types.Hash, sentAt map[types.Hash]time.Time, start time.Time, rejected int, firstReject error, err error) {
	if fo, err = newFollower(ctx, c, txs); err != nil {
		return
	}
	fctx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { fo.run(fctx); close(done) }()
	defer func() { stop(); <-done }()
	sentAt = make(map[types.Hash]time.Time, len(txs))
	start = time.Now()
	accepted, rejected, firstReject, err = sendAll(ctx, hc, c.URL(), txs, sentAt)
	if err != nil {
		return
	}
	wctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	err = fo.wait(wctx, accepted)
	return
}
