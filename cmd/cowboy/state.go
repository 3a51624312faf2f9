package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/rpc"
)

func (a *app) stateCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "state",
		Short: "Prove state records and check proofs offline",
		Long: `Prove one state record (an account, or an actor's storage slot) against a
block's state root, and check such a proof without a node.`,
		Args: args(),
	}
	cmd.AddCommand(a.stateProofCmd(), a.stateVerifyCmd())
	return cmd
}

func (a *app) stateProofCmd() *cobra.Command {
	var key, height string
	var timer uint64
	cmd := &cobra.Command{
		Use:   "proof WHO",
		Short: "Fetch a proof of an account (or a storage slot) at a height",
		Long: `Fetch from the node a proof of WHO's account record, or with --key of one of
its storage slots, at --height (default latest). WHO is an address, a key
name or dev0 … dev9.

With --timer ID (and no WHO) it proves native timer ID's record instead
(docs/timers.md): present while the timer is pending, absent after.

With --json the proof is printed as a JSON document that ` + "`cowboy state verify`" + `
checks offline; save it with a redirect. Without --json a summary is shown.`,
		Example: `  cowboy state proof dev0
  cowboy state proof dev0 --json > dev0.proof.json
  cowboy state proof 0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF --height 12 --json
  cowboy state proof --timer 1 --json`,
		Args: func(cmd *cobra.Command, argv []string) error {
			if timer != 0 {
				return cobra.NoArgs(cmd, argv)
			}
			return args("WHO")(cmd, argv)
		},
		RunE: func(cmd *cobra.Command, argv []string) error {
			if timer != 0 {
				at, err := proofHeight(height)
				if err != nil {
					return err
				}
				p, err := a.client().TimerProof(cmd.Context(), timer, at)
				if err != nil {
					return fmt.Errorf("proof of timer %d: %w", timer, err)
				}
				if a.jsonOut {
					return a.printJSON(p)
				}
				return a.printProof(p, "Proof")
			}
			addr, err := a.resolveAddress(argv[0])
			if err != nil {
				return err
			}
			var slot *types.Hash
			if key != "" {
				h, err := types.ParseHash(key)
				if err != nil {
					return fmt.Errorf("--key: %w", err)
				}
				slot = &h
			}
			var at *uint64
			if height != "" && height != "latest" {
				ref, err := rpc.ParseBlockRef(height)
				if err != nil {
					return fmt.Errorf("--height: %w", err)
				}
				h, _ := ref.Height()
				at = &h
			}
			p, err := a.client().Proof(cmd.Context(), addr, slot, at)
			if err != nil {
				return fmt.Errorf("proof of %s: %w", addr, err)
			}
			if a.jsonOut {
				return a.printJSON(p)
			}
			return a.printProof(p, "Proof")
		},
	}
	cmd.Flags().StringVar(&key, "key", "", "32-byte storage slot (0x + 64 hex digits) instead of the account record")
	cmd.Flags().StringVar(&height, "height", "latest", "block height to prove at (within the node's retention window)")
	cmd.Flags().Uint64Var(&timer, "timer", 0, "prove native timer ID's record instead of an account (no WHO)")
	return cmd
}

func proofHeight(height string) (*uint64, error) {
	if height == "" || height == "latest" {
		return nil, nil
	}
	ref, err := rpc.ParseBlockRef(height)
	if err != nil {
		return nil, fmt.Errorf("--height: %w", err)
	}
	h, _ := ref.Height()
	return &h, nil
}

func (a *app) stateVerifyCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "verify FILE",
		Short: "Check a saved proof offline; exit 0 if valid, 1 with the reason if not",
		Long: `Check a proof saved by ` + "`cowboy state proof --json`" + ` without contacting a
node: the store key must be the one of the address (and slot), the proof must
take the value to the state root, the state root and height must be those of
the included block header, and the block hash must be that header's hash.
Compare the printed block hash with one you trust.`,
		Example: `  cowboy state verify dev0.proof.json`,
		Args:    args("FILE"),
		RunE: func(cmd *cobra.Command, argv []string) error {
			raw, err := os.ReadFile(argv[0])
			if err != nil {
				return fmt.Errorf("read proof: %w", err)
			}
			var p rpc.ProofJSON
			if err := json.Unmarshal(raw, &p); err != nil {
				return fmt.Errorf("%s is not a proof file: %w", argv[0], err)
			}
			if err := p.Verify(); err != nil {
				return fmt.Errorf("%s: %w", argv[0], err)
			}
			if a.jsonOut {
				return a.printJSON(struct {
					Valid     bool   `json:"valid"`
					Height    uint64 `json:"height"`
					BlockHash string `json:"blockHash"`
					Present   bool   `json:"present"`
				}{true, uint64(p.Height), types.Hash(p.BlockHash).Hex(), p.Value != nil})
			}
			return a.printProof(&p, "Valid proof")
		},
	}
}

func (a *app) printProof(p *rpc.ProofJSON, title string) error {
	t := newTable(a.stdout)
	if p.Timer != nil {
		t.row(title, "timer %d", uint64(*p.Timer))
	} else {
		t.row(title, "%s", types.Address(p.Address))
	}
	if p.Key != nil {
		t.row("Slot", "%s", types.Hash(*p.Key))
	}
	t.row("Height", "%d", uint64(p.Height))
	t.row("Block hash", "%s", types.Hash(p.BlockHash))
	t.row("State root", "%s", types.Hash(p.StateRoot))
	switch {
	case p.Value == nil:
		t.row("Record", "absent (non-inclusion proof)")
	case p.Account != nil:
		t.row("Nonce", "%d", uint64(p.Account.Nonce))
		t.row("Balance", "%s", amount(p.Account.Balance.Int()))
	default:
		t.row("Value", "0x%x", []byte(*p.Value))
	}
	t.row("Proof", "%d bytes", len(p.Proof))
	return t.flush()
}
