package main

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/cowboy-chain/cowboy/chain/genesis"
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
	// FromGenesis is true when the key was proven from the genesis file,
	// not taken from the node (--trust-node-key).
	FromGenesis bool `json:"groupKeyFromGenesis"`
	Verified    bool `json:"verified"`
	// Final is true when the walk also proved the block final (a
	// certified descendant in the round after its parent's); FinalNote
	// says how, or why not.
	Final     bool   `json:"final"`
	FinalNote string `json:"finalNote,omitempty"`
}

func (a *app) beaconVerifyCmd() *cobra.Command {
	var genesisPath, home string
	var trustNode bool
	cmd := &cobra.Command{
		Use:   "verify HEIGHT",
		Short: "Verify R_n of a finalized block from genesis, without trusting the node",
		Long: `verify checks R_n of a finalized block against what the validators signed,
taking nothing on the node's word. From --genesis FILE (the chain's
genesis.json: epoch 0's validator set and beacon key) it walks epoch by
epoch up to the block's (docs/decisions.md "Epoch anchors"):

  - the certificate of each epoch's first block (cowboy_getCertificate)
    must be signed by a stake quorum (more than 2/3) of the set it trusts
    for that epoch;
  - that block's payload names the hash of the epoch root's executed
    header, whose state root anchors store proofs (cowboy_getEpochProof)
    of the registry's records: the epoch's beacon key (EpochBeacon) and
    the next epoch's set (the member list of the DKG that keys it);
  - the block itself must be certified by its epoch's set, and σ_n in
    its certificate must be the epoch group key's BLS signature on the
    block's vote message (hash ‖ height ‖ round), R_n = BLAKE3("cowboy/beacon/v1" ‖ σ_n).

The node's cowboy_getRandomness answer must then name the same block, σ_n
and R_n. σ_n is unique for the key and the block, so a node cannot pick
another R_n. A certificate proves the block certified, not final: a node
could serve a certified block that a fork dropped. So verify also looks
at up to 8 descendants in the epoch for a child certified in the round
right after its parent's (docs/consensus.md rule 6) and prints whether
that proved the block final ("finality proven" / "not proven", the JSON
field final); an unproven finality (the newest blocks, an epoch's last
block) is not an error.

--home DIR (a node home made by cowboyd init or localnet) stands for
--genesis DIR/genesis.json. Without either, verify refuses unless
--trust-node-key is given, and then checks σ_n and R_n under the node's
key and says the key is the node's word. It exits 1 when the block has no
threshold beacon (a "vrf" or "devnet" source), or when any check fails.`,
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
			var key []byte
			var from, finalNote string
			final := false
			if genesisPath == "" {
				if !trustNode {
					return fmt.Errorf("block %d: pass --genesis FILE (the chain's genesis.json) to prove the group key from, or --trust-node-key to use the node's", height)
				}
				if r.GroupKey != nil {
					key = *r.GroupKey
				}
				from = "the node's word (pass --genesis to prove it from your genesis.json)"
			} else {
				g, err := genesis.Load(genesisPath)
				if err != nil {
					return err
				}
				w, err := walkBeacon(cmd.Context(), a.client(), g, height)
				if err != nil {
					return fmt.Errorf("block %d: %w", height, err)
				}
				qc := w.cert.QC
				if [32]byte(*r.ConsensusHash) != qc.BlockHash || uint64(*r.ConsensusRound) != qc.Round || !bytes.Equal(*r.Sigma, qc.Beacon) {
					return fmt.Errorf("block %d: the node's randomness answer names another block or σ_n than its certificate", height)
				}
				if r.GroupKey != nil && !bytes.Equal(*r.GroupKey, w.key) {
					return fmt.Errorf("block %d: the node's group key differs from the one proven from genesis", height)
				}
				key, final, finalNote = w.key, w.final, w.finalNote
				from = fmt.Sprintf("%s, proven through %d epoch(s) of certificates and registry proofs (%s key)", genesisPath, w.epochs, w.source)
			}
			if err := simplex.CheckRandomness(key, [32]byte(*r.ConsensusHash), height, uint64(*r.ConsensusRound), *r.Sigma, r.Randomness); err != nil {
				return fmt.Errorf("block %d: %w", height, err)
			}
			out := beaconVerifyResult{Height: height, Randomness: r.Randomness.String(), Sigma: r.Sigma.String(),
				GroupKey: rpc.Bytes(key).String(), KeyFrom: from, FromGenesis: genesisPath != "", Verified: true,
				Final: final, FinalNote: finalNote}
			if a.jsonOut {
				return a.printJSON(out)
			}
			fmt.Fprintf(a.stdout, "block %d: R_n %s verified\n  σ_n is the group key's signature on consensus block %s, round %d\n  group key %s from %s\n",
				height, out.Randomness, r.ConsensusHash.String(), uint64(*r.ConsensusRound), out.GroupKey, from)
			if finalNote != "" {
				fmt.Fprintf(a.stdout, "  finality %s\n", finalNote)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&genesisPath, "genesis", "", "the chain's genesis.json `FILE`, to prove the group key from")
	cmd.Flags().StringVar(&home, "home", "", "a node home `DIR` whose genesis.json to prove the group key from (instead of --genesis)")
	cmd.Flags().BoolVar(&trustNode, "trust-node-key", false, "without --genesis: accept the node's group key, unproven")
	return cmd
}
