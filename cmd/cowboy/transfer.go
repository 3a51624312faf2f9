package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/cowboy-chain/cowboy/chain/genesis"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/rpc"
)

// transferFlags are the transfer command's options; the fee fields are
// text so that a bad value is reported in the CLI's words, and "" means
// "take the node's estimate".
type transferFlags struct {
	to, value string
	txFlags
}

// txFlags are the options every command that signs a transaction shares
// (transfer, actor deploy, actor call).
type txFlags struct {
	from, passFile                 string
	cyclesLimit, cellsLimit, nonce string
	maxFeePerCycle, maxFeePerCell  string
	tipPerCycle, tipPerCell        string
	timeout                        time.Duration
	noWait                         bool
	yes                            bool // sign fees far above the basefee (feeguard.go)
	// homeKey, when set, signs instead of --from: a validator home's
	// node.key (cowboy validator).
	homeKey *crypto.PrivateKey
}

// register defines the shared flags on fl; what is "the node's estimate"
// is the same for every transaction kind.
func (f *txFlags) register(fl *pflag.FlagSet) {
	fl.StringVar(&f.from, "from", "", "key `K` that signs and pays: keystore name, its address, or dev0…dev9 (required)")
	fl.StringVar(&f.passFile, "password-file", "", "read the --from key's passphrase from the first line of `FILE`")
	f.registerFees(fl)
}

// registerFees defines every shared flag but the signer's, for commands
// that sign with another key (cowboy validator --home).
func (f *txFlags) registerFees(fl *pflag.FlagSet) {
	fl.StringVar(&f.cyclesLimit, "cycles-limit", "", "most `N` Cycles the transaction may use (default: the node's estimate)")
	fl.StringVar(&f.cellsLimit, "cells-limit", "", "most `N` Cells the transaction may use (default: the node's estimate)")
	fl.StringVar(&f.maxFeePerCycle, "max-fee-per-cycle", "", "most `N` base units paid per Cycle, basefee plus tip (default: the node's estimate)")
	fl.StringVar(&f.maxFeePerCell, "max-fee-per-cell", "", "most `N` base units paid per Cell (default: the node's estimate)")
	fl.StringVar(&f.tipPerCycle, "tip-per-cycle", "", "`N` base units per Cycle to the block proposer (default: the node's estimate)")
	fl.StringVar(&f.tipPerCell, "tip-per-cell", "", "`N` base units per Cell to the block proposer (default: the node's estimate)")
	fl.StringVar(&f.nonce, "nonce", "", "nonce `N` to use (default: the sender's pending nonce on the node)")
	fl.DurationVar(&f.timeout, "timeout", 30*time.Second, "how long to wait for the receipt")
	fl.BoolVar(&f.noWait, "no-wait", false, "print the transaction hash once the node accepts it, without waiting for the receipt")
	fl.BoolVar(&f.yes, "yes", false, fmt.Sprintf("sign even if a max fee or tip is more than %d× the current basefee", HighFeeFactor))
}

func (a *app) transferCmd() *cobra.Command {
	var f transferFlags
	cmd := &cobra.Command{
		Use:   "transfer --from K --to WHO --value V",
		Short: "Send CBY and wait for the receipt",
		Long: `Sign a transfer of --value from key --from to --to, send it to the node, and
wait for its receipt: hash, block, status, cycles and cells used, fee paid,
amount burned and tip.

--from is a keystore key name, an address whose key is in the keystore, or
dev0 … dev9 (only when the node runs the devnet, chain id 7777). --to is an
address, a key name, or dev0 … dev9. --value is 1.5cby or an integer of base
units.

The nonce is the sender's pending nonce on the node (--nonce overrides it);
the chain id comes from the node; limits, max fees and tips come from the
node's cowboy_estimateFees unless given. Fee flags take base units per cycle
or per cell. A transaction the node refuses prints the node's reason and
exits 1; so does one that is included but fails.

With --json: one object with the receipt's fields; amounts (value, fee,
burned, tip) are decimal strings of base units.`,
		Example: `  cowboy transfer --from dev0 --to dev1 --value 1.5cby
  cowboy transfer --from alice --to 0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF --value 1000 --password-file pw.txt --json
  cowboy transfer --from dev0 --to alice --value 10cby --tip-per-cycle 2 --timeout 1m`,
		Args: args(),
		RunE: func(cmd *cobra.Command, _ []string) error { return a.transfer(cmd.Context(), &f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.to, "to", "", "recipient `WHO`: 0x address, key name, or dev0…dev9 (required)")
	fl.StringVar(&f.value, "value", "", "amount `V` to send: 1.5cby or an integer of base units (required)")
	f.register(fl)
	for _, name := range []string{"from", "to", "value"} {
		if err := cmd.MarkFlagRequired(name); err != nil {
			panic(err) // the flag was defined just above
		}
	}
	return cmd
}

// optUint parses an optional count flag; "" leaves dst untouched.
func optUint(dst *uint64, flag, text string) error {
	if text == "" {
		return nil
	}
	v, err := strconv.ParseUint(text, 10, 64)
	if err != nil {
		return fmt.Errorf("--%s %q: want a whole number from 0 to %d", flag, text, uint64(1<<64-1))
	}
	*dst = v
	return nil
}

// optFee parses an optional per-cycle or per-cell fee in base units (the
// amount syntax is accepted, so 0.000000001cby works too).
func optFee(dst *uint64, flag, text string) error {
	if text == "" {
		return nil
	}
	v, err := types.ParseAmount(text)
	if err != nil {
		return fmt.Errorf("--%s: %w", flag, err)
	}
	if !v.IsUint64() {
		return fmt.Errorf("--%s %q: at most %d base units", flag, text, uint64(1<<64-1))
	}
	*dst = v.Uint64()
	return nil
}

func (a *app) transfer(ctx context.Context, f *transferFlags) error {
	// Everything the user typed is checked before the node is asked or a
	// passphrase prompted for.
	value, err := types.ParseAmount(f.value)
	if err != nil {
		return fmt.Errorf("--value: %w", err)
	}
	to, err := a.resolveAddress(f.to)
	if err != nil {
		return fmt.Errorf("--to: %w", err)
	}
	tx, rcpt, err := a.sendTx(ctx, &f.txFlags, &to, value, []byte{}, func(chainID uint64, c *rpc.Client) error {
		if _, ok := devIndex(f.to); ok && chainID != genesis.DevnetChainID {
			return fmt.Errorf("--to %s is a devnet account, but the node at %s runs chain id %d, not the devnet's %d: anyone holds its key",
				f.to, c.URL(), chainID, genesis.DevnetChainID)
		}
		return nil
	})
	if err != nil || rcpt == nil {
		return err
	}
	if err := a.printTransfer(tx, rcpt); err != nil {
		return err
	}
	return failedErr(rcpt)
}

// failedErr is the error for an included transaction whose execution
// failed (exit status 1 after the receipt is printed).
func failedErr(r *rpc.ReceiptJSON) error {
	if r.Succeeded() {
		return nil
	}
	return fmt.Errorf("transaction %s failed in block %d: %s", r.TransactionHash, uint64(r.BlockNumber), r.Error)
}

// sendTx signs a transaction to `to` (nil: a deployment) from f.from, sends
// it and waits for the receipt. Limits and fees not given in f come from
// the node's cowboy_estimateFees (which simulates actor calls). check, if
// set, vets the chain id before anything is signed. With --no-wait it
// prints the hash and returns a nil receipt.
func (a *app) sendTx(ctx context.Context, f *txFlags, to *types.Address, value *big.Int, payload []byte, check func(chainID uint64, c *rpc.Client) error) (*types.Tx, *rpc.ReceiptJSON, error) {
	if f.timeout <= 0 && !f.noWait {
		return nil, nil, fmt.Errorf("--timeout %s: want a positive duration such as 30s (or --no-wait)", f.timeout)
	}
	var over struct{ cyclesLimit, cellsLimit, maxCycle, maxCell, tipCycle, tipCell, nonce *uint64 }
	for _, o := range []struct {
		dst  **uint64
		flag string
		text string
		fee  bool
	}{
		{&over.cyclesLimit, "cycles-limit", f.cyclesLimit, false},
		{&over.cellsLimit, "cells-limit", f.cellsLimit, false},
		{&over.nonce, "nonce", f.nonce, false},
		{&over.maxCycle, "max-fee-per-cycle", f.maxFeePerCycle, true},
		{&over.maxCell, "max-fee-per-cell", f.maxFeePerCell, true},
		{&over.tipCycle, "tip-per-cycle", f.tipPerCycle, true},
		{&over.tipCell, "tip-per-cell", f.tipPerCell, true},
	} {
		if o.text == "" {
			continue
		}
		v := new(uint64)
		parse := optUint
		if o.fee {
			parse = optFee
		}
		if err := parse(v, o.flag, o.text); err != nil {
			return nil, nil, err
		}
		*o.dst = v
	}

	c := a.client()
	var (
		sg      *signer
		chainID uint64
		err     error
	)
	if f.homeKey != nil {
		sg = &signer{name: "node.key", key: f.homeKey}
		if chainID, err = c.ChainID(ctx); err != nil {
			return nil, nil, fmt.Errorf("ask the node for its chain id: %w", err)
		}
	} else if sg, chainID, err = a.resolveSigner(ctx, c, f.from, f.passFile); err != nil {
		return nil, nil, fmt.Errorf("--from: %w", err)
	}
	if check != nil {
		if err := check(chainID, c); err != nil {
			return nil, nil, err
		}
	}
	from := types.Address(sg.key.Address())
	nonce := uint64(0)
	if over.nonce != nil {
		nonce = *over.nonce
	} else if nonce, err = c.Nonce(ctx, from, true); err != nil {
		return nil, nil, fmt.Errorf("pending nonce of %s: %w", from, err)
	}
	rfrom := rpc.Address(from)
	args := rpc.EstimateFeesArgs{From: &rfrom, Value: rpc.NewBigQuantity(value), Payload: rpc.Bytes(payload)}
	if to != nil {
		rto := rpc.Address(*to)
		args.To = &rto
	}
	bf, err := c.Basefees(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("basefees: %w", err)
	}
	est, err := c.EstimateFees(ctx, args)
	var rerr *rpc.Error
	if errors.As(err, &rerr) && rerr.RejectReason() == "execution_would_fail" && over.cyclesLimit != nil && over.cellsLimit != nil {
		// The caller set both limits: send it anyway (the state may change
		// before inclusion), priced as the node prices estimates.
		est = &rpc.FeeEstimateJSON{TipPerCycle: 1, TipPerCell: 1, MaxFeePerCycle: 2*bf.Cycle + 1, MaxFeePerCell: 2*bf.Cell + 1}
		fmt.Fprintf(a.stderr, "warning: %v; sending anyway because --cycles-limit and --cells-limit are set\n", rerr.Message)
	} else if err != nil {
		return nil, nil, fmt.Errorf("estimate fees: %w", err)
	}
	tx := &types.Tx{
		ChainID: chainID, Nonce: nonce, To: to, Value: value, Payload: payload,
		CyclesLimit: pick(over.cyclesLimit, uint64(est.CyclesLimit)),
		CellsLimit:  pick(over.cellsLimit, uint64(est.CellsLimit)),
	}
	tx.TipPerCycle, tx.MaxFeePerCycle = chooseFees(over.tipCycle, over.maxCycle, uint64(est.TipPerCycle), uint64(est.MaxFeePerCycle))
	tx.TipPerCell, tx.MaxFeePerCell = chooseFees(over.tipCell, over.maxCell, uint64(est.TipPerCell), uint64(est.MaxFeePerCell))
	if err := feeGuard(tx, bf, f.yes); err != nil {
		return nil, nil, err
	}
	if !a.jsonOut {
		fmt.Fprintf(a.stderr, "Worst-case fee %s (%s cycles × %d + %s cells × %d base units); signing\n", types.FormatCBY(worstFee(tx)),
			types.GroupDigits(decU(tx.CyclesLimit)), tx.MaxFeePerCycle, types.GroupDigits(decU(tx.CellsLimit)), tx.MaxFeePerCell)
	}
	tx.Sign(sg.key)

	hash, err := c.SendRawTransaction(ctx, tx)
	if err != nil {
		return nil, nil, err
	}
	if f.noWait {
		if a.jsonOut {
			return tx, nil, a.printJSON(struct {
				Hash   string `json:"hash"`
				Status string `json:"status"`
			}{hash.Hex(), "pending"})
		}
		fmt.Fprintln(a.stdout, hash)
		return tx, nil, nil
	}
	if !a.jsonOut {
		fmt.Fprintf(a.stderr, "Sent %s; waiting up to %s for its receipt\n", hash, f.timeout)
	}
	wctx, cancel := context.WithTimeout(ctx, f.timeout)
	defer cancel()
	// By subscription (one message when it is included); a node without
	// WebSocket support is polled instead.
	rcpt, err := c.WaitReceiptWS(wctx, hash)
	if errors.Is(err, rpc.ErrNoWebSocket) {
		rcpt, err = c.WaitReceipt(wctx, hash, 0)
	}
	if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
		return nil, nil, fmt.Errorf("transaction %s was accepted but has no receipt after %s; it may still be included: check with `cowboy tx get %s`", hash, f.timeout, hash)
	}
	if err != nil {
		// The transaction was accepted; whatever broke (typically the node
		// stopped), the user must learn which transaction is in doubt and
		// what to do. %v, not %w: this is not "start a node" advice.
		return nil, nil, fmt.Errorf("lost the node at %s while waiting for the receipt of transaction %s (nonce %d; %v). "+
			"It was accepted and may still be included: when the node is back, check with `cowboy tx get %s`; "+
			"if the node does not know it, send it again with --nonce %d (the same nonce replaces it, never pays twice)",
			c.URL(), hash, tx.Nonce, err, hash, tx.Nonce)
	}
	return tx, rcpt, nil
}

func pick(override *uint64, estimate uint64) uint64 {
	if override != nil {
		return *override
	}
	return estimate
}

// chooseFees chooses a tip and max fee, each the user's when given, else the
// estimate's. A tip given alone moves the estimated max fee with it (the
// estimate is basefee headroom plus its own tip); a max fee given alone
// caps the estimated tip, since a tip above the max fee can never be paid.
func chooseFees(tip, maxFee *uint64, estTip, estMax uint64) (uint64, uint64) {
	switch {
	case tip != nil && maxFee != nil:
		return *tip, *maxFee
	case tip != nil:
		headroom := estMax - min(estTip, estMax)
		if headroom > math.MaxUint64-*tip {
			return *tip, math.MaxUint64
		}
		return *tip, headroom + *tip
	case maxFee != nil:
		return min(estTip, *maxFee), *maxFee
	}
	return estTip, estMax
}

// transferView is `cowboy transfer --json`: the receipt plus what was sent.
type transferView struct {
	receiptView
	Value string `json:"value"`
	Nonce uint64 `json:"nonce"`
}

func (a *app) printTransfer(tx *types.Tx, r *rpc.ReceiptJSON) error {
	if a.jsonOut {
		return a.printJSON(transferView{receiptView: newReceiptView(r), Value: dec(tx.Value), Nonce: tx.Nonce})
	}
	t := newTable(a.stdout)
	printReceipt(t, r)
	t.row("From", "%s", r.From)
	if r.To != nil {
		t.row("To", "%s", *r.To)
	}
	t.row("Value", "%s", amount(new(big.Int).Set(tx.Value)))
	t.row("Nonce", "%d", tx.Nonce)
	return t.flush()
}
