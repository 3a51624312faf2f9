package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/rpc"
)

func (a *app) balanceCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "balance WHO",
		Short: "Show the balance and nonce of an account",
		Long: `Show an account's balance and nonce at the latest block. WHO is an address
(0x + 40 hex digits; mixed case must be a valid EIP-55 checksum), a key name
from the keystore, or dev0 … dev9 for the devnet's dev accounts.

With --json: {"address", "balance" (decimal string of base units), "nonce"}.`,
		Example: `  cowboy balance dev0
  cowboy balance alice
  cowboy balance 0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF --json`,
		Args: args("WHO"),
		RunE: func(cmd *cobra.Command, argv []string) error {
			addr, err := a.resolveAddress(argv[0])
			if err != nil {
				return err
			}
			c := a.client()
			bal, err := c.Balance(cmd.Context(), addr)
			if err != nil {
				return fmt.Errorf("balance of %s: %w", addr, err)
			}
			nonce, err := c.Nonce(cmd.Context(), addr, false)
			if err != nil {
				return fmt.Errorf("nonce of %s: %w", addr, err)
			}
			if a.jsonOut {
				return a.printJSON(struct {
					Address string `json:"address"`
					Balance string `json:"balance"`
					Nonce   uint64 `json:"nonce"`
				}{addr.Hex(), dec(bal), nonce})
			}
			t := newTable(a.stdout)
			t.row("Address", "%s", addr)
			t.row("Balance", "%s", amount(bal))
			t.row("Nonce", "%d", nonce)
			return t.flush()
		},
	}
}

func (a *app) txCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:     "tx",
		Short:   "Look up transactions",
		Long:    `Look up transactions by hash.`,
		Example: `  cowboy tx get 0x8d2c0b0c3e5b0d1f4b6c3c0a3f52d7a4b1e9e7a0c5d6f1a2b3c4d5e6f7a8b9c0`,
		RunE:    groupRun,
	}
	cmd.AddCommand(a.txTraceCmd()) // trace.go
	cmd.AddCommand(&cobra.Command{
		Use:   "get HASH",
		Short: "Show a transaction and, once it is in a block, its receipt",
		Long: `Show the transaction with hash HASH (0x + 64 hex digits): pending in the
mempool, or included in a block, in which case its receipt follows (status,
cycles and cells used, fee paid, amount burned, tip). A job continuation's
receipt (its id is in cowboy jobs show) has no transaction: it is shown
alone.

With --json: {"transaction": {...}, "receipt": {...} or null}; amounts are
decimal strings of base units.`,
		Example: `  cowboy tx get 0x8d2c0b0c3e5b0d1f4b6c3c0a3f52d7a4b1e9e7a0c5d6f1a2b3c4d5e6f7a8b9c0
  cowboy tx get 0x8d2c0b0c3e5b0d1f4b6c3c0a3f52d7a4b1e9e7a0c5d6f1a2b3c4d5e6f7a8b9c0 --json | jq .receipt.status`,
		Args: args("HASH"),
		RunE: func(cmd *cobra.Command, argv []string) error {
			h, err := types.ParseHash(argv[0])
			if err != nil {
				return err
			}
			c := a.client()
			tx, err := c.TransactionByHash(cmd.Context(), h)
			if errors.Is(err, rpc.ErrNotFound) {
				// A job continuation (docs/runners.md) has a receipt and no
				// transaction.
				if rcpt, rerr := c.Receipt(cmd.Context(), h); rerr == nil {
					if a.jsonOut {
						rv := newReceiptView(rcpt)
						return a.printJSON(struct {
							Transaction *txView      `json:"transaction"`
							Receipt     *receiptView `json:"receipt"`
						}{Receipt: &rv})
					}
					fmt.Fprintf(a.stdout, "%s is a job continuation: the result verifier's call of %s, no transaction\n\nReceipt\n", h, rcpt.To)
					t := newTable(a.stdout)
					printReceipt(t, rcpt)
					return t.flush()
				}
				return fmt.Errorf("transaction %s not found: it is neither in a block nor in the node's mempool", h)
			}
			if err != nil {
				return fmt.Errorf("transaction %s: %w", h, err)
			}
			var rcpt *rpc.ReceiptJSON
			if tx.BlockHash != nil {
				if rcpt, err = c.Receipt(cmd.Context(), h); err != nil {
					return fmt.Errorf("receipt of %s: %w", h, err)
				}
			}
			if a.jsonOut {
				out := struct {
					Transaction txView       `json:"transaction"`
					Receipt     *receiptView `json:"receipt"`
				}{Transaction: newTxView(tx)}
				if rcpt != nil {
					rv := newReceiptView(rcpt)
					out.Receipt = &rv
				}
				return a.printJSON(out)
			}
			t := newTable(a.stdout)
			printTx(t, newTxView(tx))
			if err := t.flush(); err != nil {
				return err
			}
			if rcpt != nil {
				fmt.Fprintln(a.stdout, "\nReceipt")
				t := newTable(a.stdout)
				printReceipt(t, rcpt)
				return t.flush()
			}
			return nil
		},
	})
	return cmd
}

func (a *app) blockCmd() *cobra.Command {
	var full bool
	cmd := &cobra.Command{
		Use:   "block [N|latest|HASH]",
		Short: "Show a block by height (default latest) or by hash",
		Long: `Show a block's header, its status and its transactions' hashes. The
argument is a height (decimal, or 0x hex), latest (the default), earliest,
or a block hash (0x + 64 hex digits). --full lists each transaction's
sender, recipient, value and nonce instead of the hash alone. Every chain
block is finalized; a consensus block hash of a block that is only
proposed or committed (cowboy_consensusStatus lists them) shows its height,
round and status.`,
		Example: `  cowboy block
  cowboy block 42 --full
  cowboy block latest --json | jq .height`,
		Args: optionalArg("block"),
		RunE: func(cmd *cobra.Command, argv []string) error {
			arg := "latest"
			if len(argv) == 1 {
				arg = argv[0]
			}
			c := a.client()
			var b *rpc.BlockJSON
			var err error
			if strings.HasPrefix(arg, "0x") && len(arg) == 66 {
				h, herr := types.ParseHash(arg)
				if herr != nil {
					return herr
				}
				b, err = c.BlockByHash(cmd.Context(), h, full)
				if errors.Is(err, rpc.ErrNotFound) {
					// Perhaps a consensus block hash of a block not final
					// yet (cowboy_consensusStatus lists them).
					if st, serr := c.BlockStatusByHash(cmd.Context(), rpc.Hash(h)); serr == nil && st.Status != rpc.StatusFinalized {
						v := pendingBlockView{Hash: st.Hash.String(), Height: uint64(st.Height), Status: st.Status}
						if st.Round != nil {
							v.Round = uint64(*st.Round)
						}
						if st.Epoch != nil {
							v.Epoch = uint64(*st.Epoch)
						}
						if a.jsonOut {
							return a.printJSON(v)
						}
						return printPendingBlock(a.stdout, v)
					}
				}
			} else {
				ref, rerr := rpc.ParseBlockRef(arg)
				if rerr != nil {
					return rerr
				}
				b, err = c.BlockByNumber(cmd.Context(), ref, full)
			}
			if errors.Is(err, rpc.ErrNotFound) {
				if head, herr := c.BlockNumber(cmd.Context()); herr == nil {
					return fmt.Errorf("block %s not found: the chain is at height %d", arg, head)
				}
				return fmt.Errorf("block %s not found", arg)
			}
			if err != nil {
				return fmt.Errorf("block %s: %w", arg, err)
			}
			v := newBlockView(b, full)
			if a.jsonOut {
				return a.printJSON(v)
			}
			return printBlock(a.stdout, v)
		},
	}
	cmd.Flags().BoolVar(&full, "full", false, "show each transaction's from, to, value and nonce")
	return cmd
}

func (a *app) feesCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "fees",
		Short: "Show the cycle and cell basefees the next block charges",
		Long: `Show the basefees, in base units per Cycle and per Cell, that the next block
will charge (technical-spec-v2 §4.2: both adjust every block toward their
target and are burned). A transfer uses 10,000 cycles and no cells.

With --json: {"height" (the next block), "basefeeCycle", "basefeeCell"}, the
fees as decimal strings of base units.`,
		Example: `  cowboy fees
  cowboy fees --json`,
		Args: args(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			bf, err := a.client().Basefees(cmd.Context())
			if err != nil {
				return fmt.Errorf("basefees: %w", err)
			}
			if a.jsonOut {
				return a.printJSON(struct {
					Height       uint64 `json:"height"`
					BasefeeCycle string `json:"basefeeCycle"`
					BasefeeCell  string `json:"basefeeCell"`
				}{uint64(bf.Height), decU(uint64(bf.Cycle)), decU(uint64(bf.Cell))})
			}
			t := newTable(a.stdout)
			t.row("Next block", "%d", uint64(bf.Height))
			t.row("Cycle basefee", "%s base units per cycle", types.GroupDigits(decU(uint64(bf.Cycle))))
			t.row("Cell basefee", "%s base units per cell", types.GroupDigits(decU(uint64(bf.Cell))))
			return t.flush()
		},
	}
}
