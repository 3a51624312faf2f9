package main

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/cowboy-chain/cowboy/chain/genesis"
	"github.com/cowboy-chain/cowboy/chain/system/staking"
	"github.com/cowboy-chain/cowboy/consensus/simplex"
	"github.com/cowboy-chain/cowboy/rpc"
)

func (a *app) beaconCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:     "beacon",
		Short:   "Check a block's randomness R_n (the threshold beacon, technical-spec-v2 §3.4)",
		Example: "  cowboy beacon verify 42",
		Args:    cobra.ArbitraryArgs,
		RunE:    groupRun,
	}
	cmd.AddCommand(a.beaconVerifyCmd())
	return cmd
}

// beaconVerifyResult is what `cowboy beacon verify --json` prints.
type beaconVerifyResult struct {
	Height     uint64 `json:"height"`
	Randomness string `json:"randomness"`
	Sigma      string `json:"sigma"`
	GroupKey   string `json:"groupKey"`
	KeyFrom    string `json:"groupKeyFrom"`
	Verified   bool   `json:"verified"`
}

func (a *app) beaconVerifyCmd() *cobra.Command {
	var genesisPath string
	cmd := &cobra.Command{
		Use:   "verify HEIGHT",
		Short: "Verify R_n of a finalized block from the node's σ_n, without trusting the node's word",
		Long: `verify asks the node (cowboy_getRandomness) for R_n, σ_n and the block's
consensus hash and round, and checks itself that σ_n is the epoch group
key's BLS signature on the block's vote message (hash ‖ height ‖ round)
and that R_n = BLAKE3("cowboy/beacon/v1" ‖ σ_n). σ_n is unique for the
key and the block, so a node cannot pick another R_n.

The group key is read from --genesis FILE (the chain's genesis.json) when
given and the block's epoch uses the genesis key; an epoch keyed by its
DKG (run on chain in the epoch before) has the key of the registry's
epoch record, as the node reports it, and the output says which. It exits 1 when
the block has no threshold beacon (a "vrf" or "devnet" source) or any check
fails.`,
		Example: "  cowboy beacon verify 42 --rpc http://127.0.0.1:8645 --genesis localnet/genesis.json",
		Args:    args("HEIGHT"),
		RunE: func(cmd *cobra.Command, argv []string) error {
			height, err := strconv.ParseUint(argv[0], 0, 64)
			if err != nil {
				return fmt.Errorf("height %q: want a block number", argv[0])
			}
			r, err := a.client().Randomness(cmd.Context(), height)
			if err != nil {
				return err
			}
			if r.Source != rpc.RandomnessBeacon || r.Sigma == nil || r.ConsensusHash == nil || r.ConsensusRound == nil {
				return fmt.Errorf("block %d has no threshold beacon: source %q (%s)", height, r.Source, r.Note)
			}
			if uint64(r.Height) != height {
				return fmt.Errorf("the node answered for height %d, not %d", r.Height, height)
			}
			key, from := []byte(nil), "the node (pass --genesis to check it against your genesis.json)"
			if r.GroupKey != nil {
				key = *r.GroupKey
			}
			// A DKG's key (KeyEpoch > 0, made or carried over) is not in
			// genesis.json; the genesis key, carried or not, is.
			dkgKey := r.KeySource != "" && r.KeySource != staking.BeaconGenesis && r.KeyEpoch != nil && *r.KeyEpoch > 0
			if dkgKey {
				from = fmt.Sprintf("the epoch %d DKG (the registry's epoch record, as the node reports it)", uint64(*r.KeyEpoch))
			}
			if genesisPath != "" && !dkgKey {
				g, err := genesis.Load(genesisPath)
				if err != nil {
					return err
				}
				if g.Beacon == nil {
					return fmt.Errorf("%s has no beacon key", genesisPath)
				}
				if key != nil && !bytes.Equal(key, g.Beacon.GroupKey) {
					return errors.New("the node's group key differs from the genesis file's")
				}
				key, from = g.Beacon.GroupKey, genesisPath
			}
			if err := simplex.CheckRandomness(key, [32]byte(*r.ConsensusHash), height, uint64(*r.ConsensusRound), *r.Sigma, r.Randomness); err != nil {
				return fmt.Errorf("block %d: %w", height, err)
			}
			out := beaconVerifyResult{Height: height, Randomness: r.Randomness.String(), Sigma: r.Sigma.String(),
				GroupKey: rpc.Bytes(key).String(), KeyFrom: from, Verified: true}
			if a.jsonOut {
				return a.printJSON(out)
			}
			fmt.Fprintf(a.stdout, "block %d: R_n %s verified\n  σ_n is the group key's signature on consensus block %s, round %d\n  group key %s from %s\n",
				height, out.Randomness, r.ConsensusHash.String(), uint64(*r.ConsensusRound), out.GroupKey, from)
			return nil
		},
	}
	cmd.Flags().StringVar(&genesisPath, "genesis", "", "the chain's genesis.json `FILE`, to take the group key from")
	return cmd
}
