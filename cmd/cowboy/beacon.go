package main

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
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
	// FromGenesis is true when the key came from the genesis file, not
	// from the node (--trust-node-key).
	FromGenesis bool `json:"groupKeyFromGenesis"`
	Verified    bool `json:"verified"`
}

func (a *app) beaconVerifyCmd() *cobra.Command {
	var genesisPath, home string
	var trustNode bool
	cmd := &cobra.Command{
		Use:   "verify HEIGHT",
		Short: "Verify R_n of a finalized block from the node's σ_n under a group key you trust",
		Long: `verify asks the node (cowboy_getRandomness) for R_n, σ_n and the block's
consensus hash and round, and checks itself that σ_n is the epoch group
key's BLS signature on the block's vote message (hash ‖ height ‖ round)
and that R_n = BLAKE3("cowboy/beacon/v1" ‖ σ_n). σ_n is unique for the
key and the block, so a node cannot pick another R_n.

What it does not take from the node is the group key:

  - an epoch keyed by genesis (the first epoch, or one whose DKG failed
    and carried the genesis key over): the key is beacon.group_key of
    --genesis FILE, the chain's genesis.json; a node reporting another
    key is an error.
  - an epoch keyed by a DKG (run on chain in the epoch before): the key
    is in the registry's epoch record, and no certificate commits to a
    state root (a proposal carries only time and transactions, executed
    after finality), so the record cannot be proven against anything
    the validators signed. verify refuses such a block unless you pass
    --trust-node-key, and then says the key is the node's word.

--home DIR (a node home made by cowboyd init or localnet) stands for
--genesis DIR/genesis.json. Without either, a genesis-keyed block is refused too unless
--trust-node-key is given. It exits 1 when the block has no threshold
beacon (a "vrf" or "devnet" source), when the key is not established as
above, or when any check fails.`,
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
			if genesisPath == "" && home != "" {
				genesisPath = filepath.Join(home, "genesis.json")
			}
			key, from, err := beaconKeyFor(height, r, genesisPath, trustNode)
			if err != nil {
				return err
			}
			if err := simplex.CheckRandomness(key, [32]byte(*r.ConsensusHash), height, uint64(*r.ConsensusRound), *r.Sigma, r.Randomness); err != nil {
				return fmt.Errorf("block %d: %w", height, err)
			}
			out := beaconVerifyResult{Height: height, Randomness: r.Randomness.String(), Sigma: r.Sigma.String(),
				GroupKey: rpc.Bytes(key).String(), KeyFrom: from, FromGenesis: from == genesisPath, Verified: true}
			if a.jsonOut {
				return a.printJSON(out)
			}
			fmt.Fprintf(a.stdout, "block %d: R_n %s verified\n  σ_n is the group key's signature on consensus block %s, round %d\n  group key %s from %s\n",
				height, out.Randomness, r.ConsensusHash.String(), uint64(*r.ConsensusRound), out.GroupKey, from)
			return nil
		},
	}
	cmd.Flags().StringVar(&genesisPath, "genesis", "", "the chain's genesis.json `FILE`, to take the group key from")
	cmd.Flags().StringVar(&home, "home", "", "a node home `DIR` whose genesis.json to take the group key from (instead of --genesis)")
	cmd.Flags().BoolVar(&trustNode, "trust-node-key", false, "accept the node's group key where it cannot be checked (a DKG-keyed epoch, or no --genesis)")
	return cmd
}

// beaconKeyFor is the group key σ_n of block height must verify under, and
// where it comes from: genesis.json for a genesis-keyed epoch, the node's
// answer only when trustNode allows it. A DKG key is in the registry's
// epoch record, a state record; block certificates sign the proposal
// (time and transactions, v2 §6.1, executed after finality) and no state
// root, so no state proof of that record reaches anything the validators
// signed (docs/decisions.md "Trust in cowboy beacon verify").
func beaconKeyFor(height uint64, r *rpc.RandomnessJSON, genesisPath string, trustNode bool) ([]byte, string, error) {
	var nodeKey []byte
	if r.GroupKey != nil {
		nodeKey = *r.GroupKey
	}
	// A DKG's key (KeyEpoch > 0, made or carried over) is not in
	// genesis.json; the genesis key, carried or not, is.
	if r.KeySource != "" && r.KeySource != staking.BeaconGenesis && r.KeyEpoch != nil && *r.KeyEpoch > 0 {
		if !trustNode {
			return nil, "", fmt.Errorf("block %d: its group key is the epoch %d DKG's, which only the node vouches for (no block certificate commits to the registry record); pass --trust-node-key to check σ_n and R_n under the node's key",
				height, uint64(*r.KeyEpoch))
		}
		return nodeKey, fmt.Sprintf("the node's word (the epoch %d DKG's registry record, unproven)", uint64(*r.KeyEpoch)), nil
	}
	if genesisPath == "" {
		if !trustNode {
			return nil, "", fmt.Errorf("block %d: pass --genesis FILE (the chain's genesis.json) to take the group key from, or --trust-node-key to use the node's", height)
		}
		return nodeKey, "the node's word (pass --genesis to check it against your genesis.json)", nil
	}
	g, err := genesis.Load(genesisPath)
	if err != nil {
		return nil, "", err
	}
	if g.Beacon == nil {
		return nil, "", fmt.Errorf("%s has no beacon key", genesisPath)
	}
	if nodeKey != nil && !bytes.Equal(nodeKey, g.Beacon.GroupKey) {
		return nil, "", errors.New("the node's group key differs from the genesis file's")
	}
	return g.Beacon.GroupKey, genesisPath, nil
}
