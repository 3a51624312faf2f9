package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/cowboy-chain/cowboy/cbfs/cluster"
	"github.com/cowboy-chain/cowboy/cbfs/relay"
	"github.com/cowboy-chain/cowboy/chain/system/storage"
	"github.com/cowboy-chain/cowboy/chain/types"
)

// relayCmd is `cowboy relay register|exit|withdraw|attest --home DIR`: a
// CBFS relay operator's transactions to the Relay Registry (0x0B) and the
// Storage Manager (0x0A), signed and paid by the relay's own key
// (DIR/relay.key, as cbfs-relay made it).
func (a *app) relayCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:     "relay",
		Example: "  cowboy relay register --home ~/relay1 --stake 1000cby",
		Short:   "A CBFS relay operator's chain transactions (stake, exit, billing)",
		Long: `The key in DIR/relay.key (the relay's identity, made by cbfs-relay) signs
and pays: fund its address first (cbfs-relay id --home DIR prints it).
See docs/cbfs.md.`,
	}
	cmd.AddCommand(a.relayRegisterCmd(), a.relaySimpleCmd("exit_relay", "exit", "Stop taking new shards; the stake unbonds"),
		a.relaySimpleCmd("withdraw_relay", "withdraw", "Take the stake back once it has unbonded"), a.relayAttestCmd())
	return cmd
}

func relayHome(f *txFlags, home string) error {
	if home == "" {
		return fmt.Errorf("--home DIR is required")
	}
	if _, err := os.Stat(filepath.Join(home, "relay.key")); err != nil {
		return fmt.Errorf("--home %s has no relay.key: run `cbfs-relay start --home %s` once", home, home)
	}
	k, err := relay.LoadOrCreateKey(home)
	if err != nil {
		return err
	}
	f.homeKey = k
	return nil
}

func (a *app) relayRegisterCmd() *cobra.Command {
	var f txFlags
	var home, stake, addr, capacity string
	cmd := &cobra.Command{
		Use:     "register --home DIR --stake V",
		Short:   "Bond --stake and register the relay's address and capacity in 0x0B",
		Example: `  cowboy relay register --home ~/relay1 --stake 1000cby --capacity 64GiB`,
		Args:    args(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			v, err := types.ParseAmount(stake)
			if err != nil {
				return fmt.Errorf("--stake: %w", err)
			}
			capBytes, err := parseByteSize(capacity)
			if err != nil {
				return err
			}
			if err := relayHome(&f, home); err != nil {
				return err
			}
			if addr == "" {
				b, err := os.ReadFile(filepath.Join(home, "relay.json"))
				if err != nil {
					return fmt.Errorf("--addr not given and %s/relay.json not readable (start the relay first): %w", home, err)
				}
				var info cluster.RelayInfo
				if err := json.Unmarshal(b, &info); err != nil {
					return fmt.Errorf("%s/relay.json: %w", home, err)
				}
				addr = info.Addr
			}
			storageCycles(&f)
			to := storage.RegistryAddress
			return a.sendActorTx(cmd, &f, &to, v, storage.Payload("register_relay", addr, capBytes))
		},
	}
	cmd.Flags().StringVar(&home, "home", "", "relay home `DIR` holding relay.key (required)")
	cmd.Flags().StringVar(&stake, "stake", "", "stake `V` to bond, at least 1000cby (required)")
	cmd.Flags().StringVar(&addr, "addr", "", "the relay's public ip:port (default: from DIR/relay.json)")
	cmd.Flags().StringVar(&capacity, "capacity", "64GiB", "bytes offered")
	f.registerFees(cmd.Flags())
	mustRequire(cmd, "home", "stake")
	return cmd
}

func (a *app) relaySimpleCmd(method, use, short string) *cobra.Command {
	var f txFlags
	var home string
	cmd := &cobra.Command{
		Use:     use + " --home DIR",
		Short:   short,
		Example: "  cowboy relay " + use + " --home ~/relay1",
		Args:    args(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := relayHome(&f, home); err != nil {
				return err
			}
			storageCycles(&f)
			to := storage.RegistryAddress
			return a.sendActorTx(cmd, &f, &to, nil, storage.Payload(method))
		},
	}
	cmd.Flags().StringVar(&home, "home", "", "relay home `DIR` holding relay.key (required)")
	f.registerFees(cmd.Flags())
	mustRequire(cmd, "home")
	return cmd
}

func (a *app) relayAttestCmd() *cobra.Command {
	var f txFlags
	var home string
	var epoch uint64
	cmd := &cobra.Command{
		Use:     "attest --home DIR --epoch N",
		Example: "  cowboy relay attest --home ~/relay1 --epoch 41",
		Short:   "Bill a finished epoch: send the bytes the relay holds per volume to 0x0A",
		Long: `attest asks the running relay (DIR/relay.json) for the bytes it holds per
volume and sends ["attest", N, [[volume, bytes], …]] to the Storage
Manager, which pays rent from each volume's deposit (§17.6; docs/cbfs.md).
An epoch is 3,600 blocks; only a finished one can be billed, once.`,
		Args: args(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := relayHome(&f, home); err != nil {
				return err
			}
			b, err := os.ReadFile(filepath.Join(home, "relay.json"))
			if err != nil {
				return fmt.Errorf("%s/relay.json: %w (is the relay running?)", home, err)
			}
			var info cluster.RelayInfo
			if err := json.Unmarshal(b, &info); err != nil {
				return err
			}
			cl, err := relay.NewClient(info.Addr, info.ID, f.homeKey)
			if err != nil {
				return err
			}
			defer cl.Close()
			ctx, cancel := context.WithTimeout(cmd.Context(), 10*time.Second)
			defer cancel()
			st, err := cl.Stat(ctx)
			if err != nil {
				return fmt.Errorf("ask the relay at %s for its usage: %w", info.Addr, err)
			}
			var ents [][]any
			for _, v := range st.Volumes {
				if v.Bytes > 0 && len(ents) < storage.MaxAttestEntries {
					ents = append(ents, []any{v.Vol[:], v.Bytes})
				}
			}
			if len(ents) == 0 {
				return fmt.Errorf("the relay holds nothing to bill")
			}
			storageCycles(&f)
			to := storage.ManagerAddress
			return a.sendActorTx(cmd, &f, &to, nil, storage.Payload("attest", epoch, ents))
		},
	}
	cmd.Flags().StringVar(&home, "home", "", "relay home `DIR` holding relay.key and relay.json (required)")
	cmd.Flags().Uint64Var(&epoch, "epoch", 0, "the finished billing epoch `N` (height / 3600)")
	f.registerFees(cmd.Flags())
	mustRequire(cmd, "home", "epoch")
	return cmd
}
