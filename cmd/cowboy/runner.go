package main

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/cowboy-chain/cowboy/chain/system/runner"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/rpc"
)

func (a *app) runnerCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "runner",
		Short: "Register, delegate to and inspect runners of the off-chain compute market",
		Long: `Runners execute off-chain jobs (LLM inference, HTTP fetches) for actors and
are paid from the jobs' escrow (technical spec §5). They bond stake in the
Runner Registry (system actor ` + runner.RegistryAddress.Hex() + `): at least
max(10,000 CBY, 1.5 × their declared max job value), with a self-bond of at
least 10% of it; delegators add stake and share the runner's revenue less
its commission. docs/runners.md walks through both sides.`,
		Example: `  cowboy runner register --from dev1 --stake 10000cby --models m1 --rate-card card.json
  cowboy runner list
  cowboy runner delegate dev1 --value 500cby --from dev2`,
		RunE: groupRun,
	}
	cmd.AddCommand(a.runnerRegisterCmd(), a.runnerListCmd(), a.runnerShowCmd(), a.runnerParamsCmd(),
		a.runnerStakeCmd("delegate", "Delegate --value to RUNNER (CIP-13); it earns a share of the runner's payouts"),
		a.runnerStakeCmd("undelegate", "Start unbonding --value of your delegation at RUNNER; withdraw it after the unbonding period"),
		a.runnerExitCmd(), a.runnerWithdrawCmd())
	return cmd
}

// rateCard reads a rate card file: {"per_job": V, "per_token": V,
// "per_kb": V}, each an amount (1.5cby, or base units as a string or a
// number); missing keys are 0.
func rateCard(path string) (map[string]*big.Int, error) {
	out := map[string]*big.Int{"per_job": new(big.Int), "per_token": new(big.Int), "per_kb": new(big.Int)}
	if path == "" {
		return out, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--rate-card: %w", err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("--rate-card %s: %w", path, err)
	}
	for k, v := range raw {
		if _, ok := out[k]; !ok {
			return nil, fmt.Errorf("--rate-card %s: unknown key %q: want per_job, per_token, per_kb", path, k)
		}
		s := strings.Trim(string(v), `"`)
		amt, err := types.ParseAmount(s)
		if err != nil {
			return nil, fmt.Errorf("--rate-card %s: %s: %w", path, k, err)
		}
		out[k] = amt
	}
	return out, nil
}

// runnerHome makes f sign with a runner home's key (DIR/runner.key, made
// by cowboy-runner init) when --home is set; otherwise --from must be.
func runnerHome(f *txFlags, home string) error {
	if home == "" {
		if f.from == "" {
			return errors.New("--from or --home is required: the key that signs (a runner signs with its home's runner.key)")
		}
		return nil
	}
	b, err := os.ReadFile(filepath.Join(home, "runner.key"))
	if err != nil {
		return fmt.Errorf("--home: %w (cowboy-runner init --home %s makes it)", err, home)
	}
	raw, err := hex.DecodeString(strings.TrimSpace(string(b)))
	if err != nil {
		return fmt.Errorf("--home %s: runner.key is not hex", home)
	}
	k, err := crypto.PrivateKeyFromBytes(raw)
	if err != nil {
		return fmt.Errorf("--home %s: %w", home, err)
	}
	f.homeKey = k
	return nil
}

func splitList(s string) []string {
	out := []string{}
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func (a *app) runnerRegisterCmd() *cobra.Command {
	var (
		f                                                txFlags
		stake, models, domains, card, endpoint, mj, home string
		commission                                       uint64
	)
	cmd := &cobra.Command{
		Use:   "register --from K|--home DIR --stake V [--models M,…] [--http-domains D,…] [--rate-card FILE]",
		Short: "Bond --stake and register --from as a runner",
		Long: `Send ["register", endpoint, models, domains, rates, max_job_value,
commission_bps] to the Runner Registry with --stake as the self-bond.

--models lists the model ids the runner serves (LLM jobs name one);
--http-domains the hosts it fetches from (HTTP jobs); --rate-card a JSON
file {"per_job": "1cby", "per_token": "0.001cby", "per_kb": "0"} (a job
costs per_job + usage × per_token or per_kb, capped at its max_price);
--endpoint the URL its committee peers push results to (the daemon's
--listen address); --max-job-value the largest max_price it takes (default:
what the stake covers, stake / 1.5); --commission-bps its cut of its
delegators' share of revenue.`,
		Example: `  cowboy runner register --from dev1 --stake 10000cby --models m1 --rate-card card.json --endpoint http://127.0.0.1:7071/`,
		Args:    args(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := runnerHome(&f, home); err != nil {
				return err
			}
			v, err := types.ParseAmount(stake)
			if err != nil {
				return fmt.Errorf("--stake: %w", err)
			}
			rates, err := rateCard(card)
			if err != nil {
				return err
			}
			maxJob := new(big.Int).Mul(v, big.NewInt(2))
			maxJob.Quo(maxJob, big.NewInt(3))
			if mj != "" {
				if maxJob, err = types.ParseAmount(mj); err != nil {
					return fmt.Errorf("--max-job-value: %w", err)
				}
			}
			to := runner.RegistryAddress
			payload := runner.Payload("register", endpoint, splitList(models), splitList(domains), rates, maxJob, commission)
			return a.sendActorTx(cmd, &f, &to, v, payload)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&stake, "stake", "", "self-bond `V`: 10000cby or base units (required)")
	fl.StringVar(&models, "models", "", "comma-separated model ids `M,…` the runner serves")
	fl.StringVar(&domains, "http-domains", "", "comma-separated hosts `D,…` the runner fetches from")
	fl.StringVar(&card, "rate-card", "", "rate card JSON `FILE` (per_job, per_token, per_kb)")
	fl.StringVar(&endpoint, "endpoint", "http://127.0.0.1:7070/", "`URL` committee peers push results to")
	fl.StringVar(&mj, "max-job-value", "", "largest max_price `V` the runner takes (default: stake / 1.5)")
	fl.Uint64Var(&commission, "commission-bps", 1000, "the runner's cut `N` of delegator-attributed revenue, in basis points")
	fl.StringVar(&home, "home", "", "sign with the runner home `DIR`'s runner.key instead of --from")
	f.register(fl)
	mustRequire(cmd, "stake")
	return cmd
}

func (a *app) runnerStakeCmd(method, short string) *cobra.Command {
	var (
		f     txFlags
		value string
	)
	cmd := &cobra.Command{
		Use:     method + " RUNNER --value V --from K",
		Short:   short,
		Long:    short + ".\n\nSends [\"" + method + "\", runner" + map[string]string{"delegate": "] with --value", "undelegate": ", amount]"}[method] + " to the Runner Registry.",
		Example: "  cowboy runner " + method + " dev1 --value 500cby --from dev2",
		Args:    args("RUNNER"),
		RunE: func(cmd *cobra.Command, argv []string) error {
			r, err := a.resolveAddress(argv[0])
			if err != nil {
				return err
			}
			v, err := types.ParseAmount(value)
			if err != nil {
				return fmt.Errorf("--value: %w", err)
			}
			to := runner.RegistryAddress
			if method == "delegate" {
				return a.sendActorTx(cmd, &f, &to, v, runner.Payload(method, r[:]))
			}
			return a.sendActorTx(cmd, &f, &to, new(big.Int), runner.Payload(method, r[:], v))
		},
	}
	cmd.Flags().StringVar(&value, "value", "", "amount `V`: 500cby or base units (required)")
	f.register(cmd.Flags())
	mustRequire(cmd, "from", "value")
	return cmd
}

func (a *app) runnerExitCmd() *cobra.Command {
	var (
		f    txFlags
		home string
	)
	cmd := &cobra.Command{
		Use:   "exit --from K|--home DIR",
		Short: "Stop taking jobs; the self-bond and every delegation start unbonding",
		Long: `Send ["exit"] to the Runner Registry. The runner is drawn for no new
committee; its self-bond and its delegators' stake stay slashable for the
unbonding period (7,200 blocks), then ` + "`cowboy runner withdraw`" + ` returns them.`,
		Example: "  cowboy runner exit --from dev1",
		Args:    args(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := runnerHome(&f, home); err != nil {
				return err
			}
			to := runner.RegistryAddress
			return a.sendActorTx(cmd, &f, &to, new(big.Int), runner.Payload("exit"))
		},
	}
	cmd.Flags().StringVar(&home, "home", "", "sign with the runner home `DIR`'s runner.key instead of --from")
	f.register(cmd.Flags())
	return cmd
}

func (a *app) runnerWithdrawCmd() *cobra.Command {
	var (
		f    txFlags
		home string
	)
	cmd := &cobra.Command{
		Use:   "withdraw [RUNNER] --from K|--home DIR",
		Short: "Take back unbonded stake: a runner's self-bond after exit, or a delegator's matured tranches",
		Long: `Send ["withdraw", runner] to the Runner Registry. RUNNER defaults to --from
itself (a runner withdrawing its self-bond after exit and the unbonding
period); a delegator names the runner it undelegated from.`,
		Example: `  cowboy runner withdraw --from dev1
  cowboy runner withdraw dev1 --from dev2`,
		Args: optionalArg("RUNNER"),
		RunE: func(cmd *cobra.Command, argv []string) error {
			if err := runnerHome(&f, home); err != nil {
				return err
			}
			var r types.Address
			switch {
			case len(argv) == 1:
				addr, err := a.resolveAddress(argv[0])
				if err != nil {
					return err
				}
				r = addr
			case f.homeKey != nil:
				r = types.Address(f.homeKey.Address())
			default:
				addr, err := a.resolveAddress(f.from)
				if err != nil {
					return err
				}
				r = addr
			}
			to := runner.RegistryAddress
			return a.sendActorTx(cmd, &f, &to, new(big.Int), runner.Payload("withdraw", r[:]))
		},
	}
	cmd.Flags().StringVar(&home, "home", "", "sign with the runner home `DIR`'s runner.key instead of --from")
	f.register(cmd.Flags())
	return cmd
}

func (a *app) runnerListCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the registered runners",
		Long: `List every runner: address, effective stake, reputation, whether it can
be drawn for a committee, the models it serves and its jobs.

With --json: the cowboy_getRunners answer.`,
		Example: "  cowboy runner list",
		Args:    args(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			rs, err := a.client().Runners(cmd.Context())
			if err != nil {
				return fmt.Errorf("runners: %w", err)
			}
			if a.jsonOut {
				return a.printJSON(rs)
			}
			if len(rs) == 0 {
				fmt.Fprintln(a.stdout, "no runners are registered")
				return nil
			}
			fmt.Fprintf(a.stdout, "%-42s %-12s %-10s %-9s %-6s %s\n", "RUNNER", "EFFECTIVE", "REPUTATION", "ELIGIBLE", "JOBS", "MODELS")
			for _, r := range rs {
				fmt.Fprintf(a.stdout, "%-42s %-12s %-10d %-9s %-6d %s\n", r.Address, types.FormatCBY((*big.Int)(&r.Effective)),
					uint64(r.Reputation), yesNo(r.Eligible), uint64(r.Jobs), strings.Join(r.Models, ","))
			}
			return nil
		},
	}
}

func (a *app) runnerParamsCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "params",
		Short: "Show the runner market's parameters",
		Long: `Show the runner market's parameters in force: stake minimums, committee
size and threshold, timeouts, the challenge window and bond, slashing,
reputation and the usage review threshold. A chain sets them in its
genesis.json "runner" object (cowboyd devnet|init|localnet --runner-params
FILE); docs/runners.md "Parameters" lists each.

With --json: the cowboy_getRunnerParams answer.`,
		Example: "  cowboy runner params",
		Args:    args(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			p, err := a.client().RunnerParams(cmd.Context())
			if err != nil {
				return fmt.Errorf("runner parameters: %w", err)
			}
			if a.jsonOut {
				return a.printJSON(p)
			}
			b := func(q rpc.BigQuantity) string { return types.FormatCBY((*big.Int)(&q)) }
			tb := newTable(a.stdout)
			tb.row("stake_floor", "%s", b(p.StakeFloor))
			tb.row("min_self_bond_bps", "%d", uint64(p.MinSelfBondBps))
			tb.row("unbonding_blocks", "%d", uint64(p.UnbondingBlocks))
			tb.row("max_delegators_per_runner", "%d", uint64(p.MaxDelegators))
			tb.row("max_tranches_per_delegator", "%d", uint64(p.MaxTranches))
			tb.row("model_deposit", "%s", b(p.ModelDeposit))
			tb.row("committee", "%d of %d (max_committee %d)", uint64(p.Threshold), uint64(p.Committee), uint64(p.MaxCommittee))
			tb.row("timeout_blocks", "%d … %d (default %d)", uint64(p.MinTimeoutBlocks), uint64(p.MaxTimeoutBlocks), uint64(p.DefaultTimeoutBlocks))
			tb.row("aggregator_timeout_blocks", "%d", uint64(p.AggregatorTimeoutBlocks))
			tb.row("challenge_window_blocks", "%d", uint64(p.ChallengeWindowBlocks))
			tb.row("challenge_bond", "%s", b(p.ChallengeBond))
			tb.row("reexecution_committee", "%d", uint64(p.ReexecutionCommittee))
			tb.row("slash_bps", "%d", uint64(p.SlashBps))
			tb.row("aggregator_bonus_bps", "%d", uint64(p.AggregatorBonusBps))
			tb.row("reputation", "initial %d, minimum %d; +%d success, −%d timeout, −%d invalid, −%d slashed, −%d usage review",
				uint64(p.InitialReputation), uint64(p.MinReputation), uint64(p.RepSuccess), uint64(p.RepTimeout),
				uint64(p.RepInvalid), uint64(p.RepSlashed), uint64(p.RepUsage))
			tb.row("usage_review_bps", "%d", uint64(p.UsageReviewBps))
			return tb.flush()
		},
	}
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func (a *app) runnerShowCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "show RUNNER",
		Short: "Show one runner: stake, delegations, rates, reputation, jobs",
		Long: `Show a runner's record: endpoint, capabilities, rate card, stake (self-bond,
delegated, required), eligibility, reputation and job counts, earnings and
slashes, and every delegation with its unbonding tranches.

With --json: the cowboy_getRunner answer.`,
		Example: "  cowboy runner show dev1",
		Args:    args("RUNNER"),
		RunE: func(cmd *cobra.Command, argv []string) error {
			addr, err := a.resolveAddress(argv[0])
			if err != nil {
				return err
			}
			r, err := a.client().Runner(cmd.Context(), addr)
			if errors.Is(err, rpc.ErrNotFound) {
				return fmt.Errorf("%s is not a registered runner", addr)
			}
			if err != nil {
				return fmt.Errorf("runner %s: %w", addr, err)
			}
			if a.jsonOut {
				return a.printJSON(r)
			}
			b := func(q rpc.BigQuantity) string { return amount((*big.Int)(&q)) }
			tb := newTable(a.stdout)
			tb.row("Runner", "%s", r.Address)
			tb.row("Endpoint", "%s", r.Endpoint)
			tb.row("Models", "%s", strings.Join(r.Models, ", "))
			tb.row("HTTP domains", "%s", strings.Join(r.Domains, ", "))
			tb.row("Rates", "per job %s, per token %s, per KiB %s", types.FormatCBY((*big.Int)(&r.Rates.PerJob)),
				types.FormatCBY((*big.Int)(&r.Rates.PerToken)), types.FormatCBY((*big.Int)(&r.Rates.PerKB)))
			tb.row("Max job value", "%s", b(r.MaxJobValue))
			tb.row("Commission", "%d bps", uint64(r.CommissionBps))
			tb.row("Self-bond", "%s", b(r.SelfBond))
			if r.Exiting {
				tb.row("Exiting", "since block %d; unbonding %s", uint64(r.ExitAt), b(r.SelfUnbonding))
			}
			tb.row("Delegated", "%s", b(r.Delegated))
			tb.row("Effective", "%s (required %s)", b(r.Effective), types.FormatCBY((*big.Int)(&r.Required)))
			el := "yes"
			if !r.Eligible {
				el = "no: " + r.Ineligible
			}
			tb.row("Eligible", "%s", el)
			tb.row("Reputation", "%d / %d", uint64(r.Reputation), runner.MaxReputation)
			tb.row("Jobs", "%d (%d accepted, %d timeouts, %d slashes)", uint64(r.Jobs), uint64(r.Successes), uint64(r.Timeouts), uint64(r.Slashes))
			tb.row("Earned", "%s", b(r.Earned))
			tb.row("Slashed", "%s", b(r.Slashed))
			for _, d := range r.Delegations {
				var ub []string
				for _, t := range d.Unbonding {
					ub = append(ub, fmt.Sprintf("%s at block %d", types.FormatCBY((*big.Int)(&t.Amount)), uint64(t.Release)))
				}
				line := fmt.Sprintf("%s bonded, earned %s", types.FormatCBY((*big.Int)(&d.Amount)), types.FormatCBY((*big.Int)(&d.Earned)))
				if len(ub) > 0 {
					line += "; unbonding " + strings.Join(ub, ", ")
				}
				tb.row("Delegation "+d.Delegator.String(), "%s", line)
			}
			return tb.flush()
		},
	}
}

func (a *app) jobsCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "jobs",
		Short: "Inspect off-chain jobs: their committee, commits, reveals, outcome and payout",
		Long: `Inspect the jobs of the Job Dispatcher (system actor ` + runner.DispatcherAddress.Hex() + `):
who asked, the committee drawn, each member's commit and reveal, how the
job ended and where its escrow went. docs/runners.md explains the job
lifecycle.`,
		Example: `  cowboy jobs list --open
  cowboy jobs show 1`,
		RunE: groupRun,
	}
	var (
		member, requester, limit string
		open                     bool
	)
	list := &cobra.Command{
		Use:   "list [--member A] [--requester A] [--open] [--limit N]",
		Short: "List jobs, newest first",
		Long: `List jobs newest first: id, phase, outcome, trust mode, committee size,
requester and max price. --member keeps the jobs whose committee has A,
--requester those A posted, --open those still committing or revealing.

With --json: the cowboy_getJobs answer.`,
		Example: "  cowboy jobs list --member dev1 --open",
		Args:    args(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			var f rpc.JobFilterJSON
			if member != "" {
				m, err := a.resolveAddress(member)
				if err != nil {
					return err
				}
				ma := rpc.Address(m)
				f.Member = &ma
			}
			if requester != "" {
				r, err := a.resolveAddress(requester)
				if err != nil {
					return err
				}
				ra := rpc.Address(r)
				f.Requester = &ra
			}
			f.Open = open
			if limit != "" {
				var n uint64
				if err := optUint(&n, "limit", limit); err != nil {
					return err
				}
				q := rpc.Quantity(n)
				f.Limit = &q
			}
			js, err := a.client().Jobs(cmd.Context(), f)
			if err != nil {
				return fmt.Errorf("jobs: %w", err)
			}
			if a.jsonOut {
				return a.printJSON(js)
			}
			if len(js) == 0 {
				fmt.Fprintln(a.stdout, "no jobs")
				return nil
			}
			fmt.Fprintf(a.stdout, "%-6s %-11s %-15s %-20s %-9s %-42s %s\n", "ID", "PHASE", "OUTCOME", "TRUST", "COMMITTEE", "REQUESTER", "MAX PRICE")
			for _, j := range js {
				fmt.Fprintf(a.stdout, "%-6d %-11s %-15s %-20s %-9d %-42s %s\n", uint64(j.ID), j.Phase, dash(j.Outcome), j.Trust,
					uint64(j.Committee), j.Requester, types.FormatCBY((*big.Int)(&j.MaxPrice)))
			}
			return nil
		},
	}
	list.Flags().StringVar(&member, "member", "", "only jobs whose committee has `A`")
	list.Flags().StringVar(&requester, "requester", "", "only jobs posted by `A`")
	list.Flags().BoolVar(&open, "open", false, "only jobs still committing or revealing")
	list.Flags().StringVar(&limit, "limit", "", "at most `N` jobs (default 50)")
	show := &cobra.Command{
		Use:   "show ID",
		Short: "Show one job",
		Long: `Show job ID: its spec, deadlines, committee and aggregator, each member's
commit and reveal, and once it ended its outcome, result or error, payment
(burned, treasury), refund, winners, slashed and penalized members, and
when its continuation ran.

With --json: the cowboy_getJob answer.`,
		Example: "  cowboy jobs show 1",
		Args:    args("ID"),
		RunE: func(cmd *cobra.Command, argv []string) error {
			id, err := strconv.ParseUint(argv[0], 0, 64)
			if err != nil || id == 0 {
				return fmt.Errorf("job id %q: want a positive integer", argv[0])
			}
			j, err := a.client().Job(cmd.Context(), id)
			if errors.Is(err, rpc.ErrNotFound) {
				return fmt.Errorf("no job %d", id)
			}
			if err != nil {
				return fmt.Errorf("job %d: %w", id, err)
			}
			if a.jsonOut {
				return a.printJSON(j)
			}
			printJob(newTable(a.stdout), j)
			return nil
		},
	}
	var cf txFlags
	challenge := &cobra.Command{
		Use:   "challenge ID --from K",
		Short: "Challenge an economic_bond job's result during its challenge window",
		Long: `Send ["challenge", ID] to the Result Verifier with the challenge bond
(challenge_bond, 100 CBY by default) plus the job's max_price: a committee of three that excludes the job's runner
re-executes it. If its answer differs, the runner is slashed, the requester
gets the held payment back and you get the bond back; if it agrees, the
bond is burned; if the re-execution fails, the bond comes back. You pay the
re-execution like any job (docs/runners.md).`,
		Example: "  cowboy jobs challenge 7 --from dev4",
		Args:    args("ID"),
		RunE: func(cmd *cobra.Command, argv []string) error {
			id, err := strconv.ParseUint(argv[0], 0, 64)
			if err != nil || id == 0 {
				return fmt.Errorf("job id %q: want a positive integer", argv[0])
			}
			j, err := a.client().Job(cmd.Context(), id)
			if err != nil {
				return fmt.Errorf("job %d: %w", id, err)
			}
			params, err := a.client().RunnerParams(cmd.Context())
			if err != nil {
				return fmt.Errorf("runner parameters: %w", err)
			}
			v := new(big.Int).Add((*big.Int)(&params.ChallengeBond), (*big.Int)(&j.MaxPrice))
			to := runner.VerifierAddress
			return a.sendActorTx(cmd, &cf, &to, v, runner.Payload("challenge", id))
		},
	}
	cf.register(challenge.Flags())
	mustRequire(challenge, "from")
	cmd.AddCommand(list, show, challenge)
	return cmd
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func printJob(tb *table, j *rpc.JobJSON) {
	b := func(q rpc.BigQuantity) string { return amount((*big.Int)(&q)) }
	tb.row("Job", "%d", uint64(j.ID))
	tb.row("Requester", "%s", j.Requester)
	what := j.Kind + " " + j.Model + j.Domain
	tb.row("Kind", "%s", what)
	tb.row("Input", "%s", string(j.Input))
	tb.row("Trust", "%s, %d of %d", j.Trust, uint64(j.Threshold), uint64(j.Committee))
	tb.row("Max price", "%s", b(j.MaxPrice))
	if t := (*big.Int)(&j.Tip); t.Sign() > 0 {
		tb.row("Tip", "%s (paid on success only)", b(j.Tip))
	}
	tb.row("Posted", "block %d (commits until %d, deadline %d)", uint64(j.Posted), uint64(j.CommitDeadline), uint64(j.Deadline))
	tb.row("Phase", "%s", j.Phase)
	for i, m := range j.Members {
		state := "no commit"
		if i < len(j.Commits) && len(j.Commits[i]) > 0 {
			state = "committed"
		}
		if i < len(j.Reveals) && j.Reveals[i] != nil {
			r := j.Reveals[i]
			state = fmt.Sprintf("revealed at %d: status %d, usage %d, %q", uint64(r.Height), uint64(r.Status), uint64(r.Usage), clipText(r.Output))
		}
		role := "member"
		if m == j.Aggregator {
			role = "aggregator"
		}
		tb.row(role+" "+m.String(), "%s", state)
	}
	if j.Outcome == "" {
		return
	}
	tb.row("Outcome", "%s at block %d", j.Outcome, uint64(j.Settled))
	if j.Error != "" {
		tb.row("Error", "%s", j.Error)
	} else {
		tb.row("Result", "%s", clipText(j.Output))
	}
	tb.row("Payment", "%s (burned %s, treasury %s)", b(j.Payment), types.FormatCBY((*big.Int)(&j.Burned)), types.FormatCBY((*big.Int)(&j.Treasury)))
	tb.row("Refund", "%s", b(j.Refund))
	for _, l := range []struct {
		name string
		as   []rpc.Address
	}{{"Paid", j.Winners}, {"Slashed", j.Slashed}, {"Penalized", j.Penalized}} {
		if len(l.as) > 0 {
			var s []string
			for _, a := range l.as {
				s = append(s, a.String())
			}
			tb.row(l.name, "%s", strings.Join(s, ", "))
		}
	}
	for _, r := range j.Reviews {
		tb.row("Reviews", "%s reported usage %d, paid on the expected %d", r.Member, uint64(r.Reported), uint64(r.Expected))
	}
	if uint64(j.ChallengeEnd) != 0 {
		switch {
		case j.ChallengeOutcome != "":
			tb.row("Challenge", "by %s (re-execution job %d): %s", j.Challenger, uint64(j.ChallengeJob), j.ChallengeOutcome)
		case uint64(j.ChallengeJob) != 0:
			tb.row("Challenge", "by %s: re-execution job %d running", j.Challenger, uint64(j.ChallengeJob))
		default:
			tb.row("Challenge window", "until block %d; %s held", uint64(j.ChallengeEnd), types.FormatCBY((*big.Int)(&j.Held)))
		}
	}
	if uint64(j.Parent) != 0 {
		tb.row("Re-executes", "job %d", uint64(j.Parent))
	}
	switch {
	case j.Delivered != 0 && j.CallbackError != "":
		tb.row("Continuation", "%s at block %d: %s", j.Callback, uint64(j.Delivered), j.CallbackError)
	case j.Delivered != 0:
		tb.row("Continuation", "%s ran at block %d (%d cycles, %d cells, fee %s)", j.Callback, uint64(j.Delivered),
			uint64(j.CallbackCycles), uint64(j.CallbackCells), types.FormatCBY((*big.Int)(&j.CallbackFee)))
	case j.DeliverAt != 0:
		tb.row("Continuation", "%s due at block %d", j.Callback, uint64(j.DeliverAt))
	}
	if j.ContinuationReceipt != nil {
		tb.row("Receipt", "%s (cowboy tx get)", *j.ContinuationReceipt)
	}
	tb.flush()
}

func clipText(s string) string {
	if len(s) > 120 {
		return s[:117] + "..."
	}
	return s
}
