package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/rpc"
)

// devImpersonateCmd is `cowboy dev impersonate` (RPC dev_impersonate).
func (a *app) devImpersonateCmd() *cobra.Command {
	var (
		to, value string
		timeout   time.Duration
	)
	cmd := &cobra.Command{
		Use:   "impersonate WHO --to ADDR [--value V] [METHOD [JSON_ARGS...]]",
		Short: "Send a transaction as any address, without its key",
		Long: `Send a transaction from WHO without WHO's key (devnet only): a transfer of
--value to --to, or, with METHOD, a call of METHOD(JSON_ARGS...) on the
actor at --to. The node signs it with a marker that only this devnet
accepts, uses WHO's pending nonce and the fee estimate, and WHO pays the
fees. Waits for the receipt and prints it; a failed call exits 1.`,
		Example: `  cowboy dev impersonate 0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF --to dev1 --value 1cby
  cowboy dev impersonate dev4 --to 0xTOKEN transfer dev1 25`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, argv []string) error {
			who, err := a.resolveAddress(argv[0])
			if err != nil {
				return fmt.Errorf("WHO: %w", err)
			}
			dest, err := a.resolveAddress(to)
			if err != nil {
				return fmt.Errorf("--to: %w", err)
			}
			v, err := parseValue(value)
			if err != nil {
				return err
			}
			args := rpc.ImpersonateArgs{To: (*rpc.Address)(&dest), Value: rpc.NewBigQuantity(v)}
			if len(argv) > 1 {
				cb, err := a.jsonArgs(argv[2:])
				if err != nil {
					return err
				}
				payload, err := (&types.CallPayload{Method: argv[1], Args: cb}).Encode()
				if err != nil {
					return fmt.Errorf("encode call: %w", err)
				}
				if err := a.mustBeActor(cmd.Context(), dest); err != nil {
					return err
				}
				args.Payload = payload
			}
			c := a.client()
			h, err := c.DevImpersonate(cmd.Context(), who, args)
			if err != nil {
				return fmt.Errorf("dev impersonate: %w", err)
			}
			if !a.jsonOut {
				fmt.Fprintf(a.stderr, "Sent %s as %s; waiting up to %s for its receipt\n", h, who, timeout)
			}
			wctx, cancel := context.WithTimeout(cmd.Context(), timeout)
			defer cancel()
			r, err := c.WaitReceiptWS(wctx, h)
			if errors.Is(err, rpc.ErrNoWebSocket) {
				r, err = c.WaitReceipt(wctx, h, 0)
			}
			if err != nil {
				return fmt.Errorf("receipt of %s: %w (check with `cowboy tx get %s`)", h, err, h)
			}
			if err := a.printActorReceipt(r); err != nil {
				return err
			}
			if !r.Succeeded() {
				return &exitError{code: 1}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&to, "to", "", "recipient or actor `ADDR`: address, key name or dev0…dev9 (required)")
	cmd.Flags().StringVar(&value, "value", "0", "CBY `V` sent: 1.5cby or base units")
	cmd.Flags().DurationVar(&timeout, "timeout", 30*time.Second, "how long to wait for the receipt")
	mustRequire(cmd, "to")
	return cmd
}
