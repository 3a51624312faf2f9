package main

import (
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/cowboy-chain/cowboy/chain/system/staking"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/node"
	"github.com/cowboy-chain/cowboy/rpc"
)

func (a *app) validatorCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "validator",
		Short: "Register, exit, withdraw and unjail a validator; report double signs; list the validator set",
		Long: `Validators bond their own stake in the validator registry (system actor
` + staking.Address.Hex() + `) and join the consensus set at the next epoch boundary; on a chain with
a beacon key (localnet, init) the set is fixed when its DKG opens, so
registrations, exits and unjails show one boundary later.
register, exit, withdraw and unjail sign with the validator home's node.key
(--home DIR, as made by cowboyd init or localnet): that key's address is the
validator, pays the fees and gets the stake back. evidence can be sent by
anyone with --from. See docs/localnet.md "Becoming a validator".`,
		Example: "  cowboy validator list",
		Args:    cobra.ArbitraryArgs,
		RunE:    groupRun,
	}
	cmd.AddCommand(a.validatorRegisterCmd(), a.validatorSimpleCmd(staking.MethodExit,
		"Leave the validator set at the next epoch boundary; the stake unbonds from there"),
		a.validatorSimpleCmd(staking.MethodWithdraw, "Take the stake back once the unbonding period is over"),
		a.validatorSimpleCmd(staking.MethodUnjail, "Become eligible again, from the next epoch boundary, once the jail period is over"),
		a.validatorEvidenceCmd(), a.validatorListCmd())
	return cmd
}

// loadHome reads a validator home's keys and makes them sign f.
func loadHome(f *txFlags, home string) (*node.NodeKeys, error) {
	if home == "" {
		return nil, fmt.Errorf("--home: the validator's home directory (with node.key and bls.key) is required")
	}
	keys, err := node.LoadKeys(home)
	if err != nil {
		return nil, fmt.Errorf("--home %s: %w", home, err)
	}
	f.homeKey = keys.Node
	return keys, nil
}

func (a *app) validatorRegisterCmd() *cobra.Command {
	var (
		f           txFlags
		home, stake string
	)
	cmd := &cobra.Command{
		Use:   "register --home DIR --stake V",
		Short: "Bond --stake and register the home's BLS key; active from the next epoch boundary",
		Long: `Send ["register", bls_pubkey, proof_of_possession] to the validator registry
with --stake as the value. The key in DIR/node.key signs and pays (it must
hold the stake plus fees); DIR/bls.key is the key that will sign votes,
and its proof of possession is made here. The stake must be at least the
chain's min_validator_stake (see ` + "`cowboy validator list`" + `).`,
		Example: `  cowboy validator register --home ~/.cowboy/node4 --stake 2000cby`,
		Args:    args(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			v, err := types.ParseAmount(stake)
			if err != nil {
				return fmt.Errorf("--stake: %w", err)
			}
			keys, err := loadHome(&f, home)
			if err != nil {
				return err
			}
			if keys.BLS == nil {
				return fmt.Errorf("--home %s has no %s: a validator needs a BLS key (cowboyd init makes one)", home, node.BLSKeyFile)
			}
			payload := staking.RegisterPayload(keys.BLS.PublicKey().Bytes(), keys.BLS.ProvePossession().Bytes())
			to := staking.Address
			return a.sendActorTx(cmd, &f, &to, v, payload)
		},
	}
	cmd.Flags().StringVar(&home, "home", "", "validator home `DIR` holding node.key and bls.key (required)")
	cmd.Flags().StringVar(&stake, "stake", "", "stake `V` to bond: 2000cby or base units (required)")
	f.registerFees(cmd.Flags())
	mustRequire(cmd, "home", "stake")
	return cmd
}

func (a *app) validatorSimpleCmd(method, short string) *cobra.Command {
	var (
		f    txFlags
		home string
	)
	cmd := &cobra.Command{
		Use:     method + " --home DIR",
		Short:   short,
		Long:    short + `. Signs ["` + method + `"] to the validator registry with DIR/node.key.`,
		Example: "  cowboy validator " + method + " --home ~/.cowboy/node4",
		Args:    args(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if _, err := loadHome(&f, home); err != nil {
				return err
			}
			to := staking.Address
			return a.sendActorTx(cmd, &f, &to, new(big.Int), staking.MethodPayload(method))
		},
	}
	cmd.Flags().StringVar(&home, "home", "", "validator home `DIR` holding node.key (required)")
	f.registerFees(cmd.Flags())
	mustRequire(cmd, "home")
	return cmd
}

// voteJSON is one vote of an evidence file.
type voteJSON struct {
	Height    uint64      `json:"height"`
	Round     uint64      `json:"round"`
	BlockHash rpc.Hash    `json:"block_hash"`
	Validator rpc.Address `json:"validator"`
	Signature rpc.Bytes   `json:"signature"`
}

// evidenceFile is the FILE of `cowboy validator evidence`.
type evidenceFile struct {
	VoteA *voteJSON `json:"vote_a"`
	VoteB *voteJSON `json:"vote_b"`
}

func (v *voteJSON) vote() *staking.Vote {
	return &staking.Vote{Height: v.Height, Round: v.Round, BlockHash: types.Hash(v.BlockHash), Validator: types.Address(v.Validator), Signature: v.Signature}
}

func (a *app) validatorEvidenceCmd() *cobra.Command {
	var f txFlags
	cmd := &cobra.Command{
		Use:   "evidence FILE --from K",
		Short: "Report a double sign: two votes of one validator for different blocks at one height and round",
		Long: `Send ["evidence", vote_a, vote_b] to the validator registry. If both votes
are signed by the same registered validator, at the same height and round,
for different blocks, the validator is jailed and 1% of its stake is
slashed and burned (v2 "Slashing"). Anyone may send it; the sender only
pays the fee. FILE is JSON:

  {"vote_a": {"height": 5, "round": 0, "block_hash": "0x…32 bytes",
              "validator": "0x…address", "signature": "0x…96 bytes"},
   "vote_b": {…}}`,
		Example: `  cowboy validator evidence double-sign.json --from dev3`,
		Args:    args("FILE"),
		RunE: func(cmd *cobra.Command, argv []string) error {
			b, err := os.ReadFile(argv[0])
			if err != nil {
				return fmt.Errorf("read %s: %w", argv[0], err)
			}
			var ev evidenceFile
			dec := json.NewDecoder(strings.NewReader(string(b)))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&ev); err != nil {
				return fmt.Errorf("%s: %w", argv[0], err)
			}
			if ev.VoteA == nil || ev.VoteB == nil {
				return fmt.Errorf("%s: want both \"vote_a\" and \"vote_b\"", argv[0])
			}
			to := staking.Address
			return a.sendActorTx(cmd, &f, &to, new(big.Int), staking.EvidencePayload(ev.VoteA.vote(), ev.VoteB.vote()))
		},
	}
	f.register(cmd.Flags())
	mustRequire(cmd, "from")
	return cmd
}

func (a *app) validatorListCmd() *cobra.Command {
	var epoch string
	cmd := &cobra.Command{
		Use:   "list [--epoch N]",
		Short: "Show an epoch's validator set, the registry's records and the staking parameters",
		Long: `Show the validator set of epoch N (default: the epoch of the latest block):
index, address, weight (whole CBY) and stake; then every registered
validator with its status (pending, active, exiting, jailed), stake, jail
and unbonding heights, and the votes it missed in the current downtime
window; then the chain's staking parameters. --json prints the
cowboy_getValidators result.`,
		Example: `  cowboy validator list
  cowboy validator list --epoch 3 --json`,
		Args: args(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			var ep *uint64
			if epoch != "" {
				var n uint64
				if err := optUint(&n, "epoch", epoch); err != nil {
					return err
				}
				ep = &n
			}
			v, err := a.client().Validators(cmd.Context(), ep)
			if err != nil {
				return err
			}
			if a.jsonOut {
				return a.printJSON(v)
			}
			return a.printValidators(v)
		},
	}
	cmd.Flags().StringVar(&epoch, "epoch", "", "epoch `N` (default: the latest block's)")
	return cmd
}

func (a *app) printValidators(v *rpc.ValidatorsJSON) error {
	w := a.stdout
	if v.Producer != nil {
		fmt.Fprintf(w, "Devnet: every block is made by %s (one producer, no consensus, no stake; it is not in the registry)\n\n", *v.Producer)
	}
	fmt.Fprintf(w, "Epoch %d (at block %d), seed %s, %d member(s)\n", uint64(v.Epoch), uint64(v.Height), types.Hash(v.Seed), len(v.Members))
	t := newTable(w)
	if len(v.Members) > 0 {
		t.row("INDEX", "ADDRESS\tWEIGHT\tSTAKE")
	}
	for _, m := range v.Members {
		t.row(decU(uint64(m.Index)), "%s\t%d\t%s", m.Address, uint64(m.Weight), types.FormatCBY(m.Stake.Int()))
	}
	if err := t.flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nRegistry: %d validator(s)\n", len(v.Validators))
	t = newTable(w)
	if len(v.Validators) > 0 {
		t.row("ADDRESS", "STATUS\tSTAKE\tJAIL UNTIL\tUNBOND UNTIL\tMISSED")
	}
	for _, r := range v.Validators {
		t.row(r.Address.String(), "%s\t%s\t%d\t%d\t%d", r.Status, types.FormatCBY(r.Stake.Int()), uint64(r.JailUntil), uint64(r.UnbondUntil), uint64(r.Missed))
	}
	if err := t.flush(); err != nil {
		return err
	}
	p := v.Params
	fmt.Fprintf(w, "\nParams: epoch_length %d, min_validator_stake %s, unbonding_period %d, jail_period %d, downtime_window %d, double_sign_slash %d bps\n",
		uint64(p.EpochLength), types.FormatCBY(p.MinValidatorStake.Int()), uint64(p.UnbondingPeriod), uint64(p.JailPeriod), uint64(p.DowntimeWindow), uint64(p.DoubleSignSlashBps))
	return nil
}
