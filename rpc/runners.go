package rpc

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"unicode/utf8"

	"github.com/cowboy-chain/cowboy/chain/system/runner"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/pvm/cbor"
)

// Runners is what a node offers for the runner market methods
// (cowboy_getRunner, cowboy_getRunners, cowboy_getJob, cowboy_getJobs),
// read at the latest block. Optional, like Timers.
type Runners interface {
	// RunnerRecord returns a runner's record, or nil.
	RunnerRecord(a types.Address) (*runner.Runner, error)
	// RunnerAddresses lists the registered runners in address order.
	RunnerAddresses() ([]types.Address, error)
	// RunnerDelegation returns d's delegation at runner r, or nil.
	RunnerDelegation(r, d types.Address) (*runner.Delegation, error)
	// Job returns a job's record, or nil.
	Job(id uint64) (*runner.Job, error)
	// JobCount is the number of jobs ever posted (ids 1 … JobCount).
	JobCount() (uint64, error)
	// RunnerParams are the market's parameters in force (genesis.json
	// "runner").
	RunnerParams() (runner.Params, error)
}

// RunnerParamsJSON is cowboy_getRunnerParams's result: amounts in base
// units, the rest counts of blocks, basis points or reputation points.
type RunnerParamsJSON struct {
	StakeFloor              BigQuantity `json:"stakeFloor"`
	MinSelfBondBps          Quantity    `json:"minSelfBondBps"`
	UnbondingBlocks         Quantity    `json:"unbondingBlocks"`
	MaxDelegators           Quantity    `json:"maxDelegatorsPerRunner"`
	MaxTranches             Quantity    `json:"maxTranchesPerDelegator"`
	ModelDeposit            BigQuantity `json:"modelDeposit"`
	Committee               Quantity    `json:"committee"`
	Threshold               Quantity    `json:"threshold"`
	MaxCommittee            Quantity    `json:"maxCommittee"`
	ReexecutionCommittee    Quantity    `json:"reexecutionCommittee"`
	MinTimeoutBlocks        Quantity    `json:"minTimeoutBlocks"`
	DefaultTimeoutBlocks    Quantity    `json:"defaultTimeoutBlocks"`
	MaxTimeoutBlocks        Quantity    `json:"maxTimeoutBlocks"`
	AggregatorTimeoutBlocks Quantity    `json:"aggregatorTimeoutBlocks"`
	ChallengeWindowBlocks   Quantity    `json:"challengeWindowBlocks"`
	ChallengeBond           BigQuantity `json:"challengeBond"`
	SlashBps                Quantity    `json:"slashBps"`
	AggregatorBonusBps      Quantity    `json:"aggregatorBonusBps"`
	InitialReputation       Quantity    `json:"initialReputation"`
	MinReputation           Quantity    `json:"minReputation"`
	RepSuccess              Quantity    `json:"reputationSuccess"`
	RepTimeout              Quantity    `json:"reputationTimeout"`
	RepInvalid              Quantity    `json:"reputationInvalid"`
	RepSlashed              Quantity    `json:"reputationSlashed"`
	RepUsage                Quantity    `json:"reputationUsage"`
	UsageReviewBps          Quantity    `json:"usageReviewBps"`
}

// NewRunnerParamsJSON renders the parameters.
func NewRunnerParamsJSON(p runner.Params) *RunnerParamsJSON {
	return &RunnerParamsJSON{StakeFloor: bq(p.StakeFloor), MinSelfBondBps: Quantity(p.MinSelfBondBps), UnbondingBlocks: Quantity(p.UnbondingBlocks),
		MaxDelegators: Quantity(p.MaxDelegators), MaxTranches: Quantity(p.MaxTranches), ModelDeposit: bq(p.ModelDeposit),
		Committee: Quantity(p.Committee), Threshold: Quantity(p.Threshold), MaxCommittee: Quantity(p.MaxCommittee),
		ReexecutionCommittee: Quantity(p.ReexecutionCommittee), MinTimeoutBlocks: Quantity(p.MinTimeoutBlocks),
		DefaultTimeoutBlocks: Quantity(p.DefaultTimeoutBlocks), MaxTimeoutBlocks: Quantity(p.MaxTimeoutBlocks),
		AggregatorTimeoutBlocks: Quantity(p.AggregatorTimeoutBlocks), ChallengeWindowBlocks: Quantity(p.ChallengeWindowBlocks),
		ChallengeBond: bq(p.ChallengeBond), SlashBps: Quantity(p.SlashBps), AggregatorBonusBps: Quantity(p.AggregatorBonusBps),
		InitialReputation: Quantity(p.InitialReputation), MinReputation: Quantity(p.MinReputation), RepSuccess: Quantity(p.RepSuccess),
		RepTimeout: Quantity(p.RepTimeout), RepInvalid: Quantity(p.RepInvalid), RepSlashed: Quantity(p.RepSlashed),
		RepUsage: Quantity(p.RepUsage), UsageReviewBps: Quantity(p.UsageReviewBps)}
}

// cowboy_getRunnerParams() shows the runner market's parameters.
func getRunnerParams(_ context.Context, b Backend, _ *params) (any, *Error) {
	rs, perr := runnersOf(b, "cowboy_getRunnerParams")
	if perr != nil {
		return nil, perr
	}
	p, err := rs.RunnerParams()
	if err != nil {
		return nil, internal(err)
	}
	return NewRunnerParamsJSON(p), nil
}

// RunnerJSON is cowboy_getRunner's result (docs/rpc.md).
type RunnerJSON struct {
	Address       Address         `json:"address"`
	Endpoint      string          `json:"endpoint"`
	Models        []string        `json:"models"`
	Domains       []string        `json:"domains"`
	Rates         RatesJSON       `json:"rates"`
	MaxJobValue   BigQuantity     `json:"maxJobValue"`
	CommissionBps Quantity        `json:"commissionBps"`
	SelfBond      BigQuantity     `json:"selfBond"`
	SelfUnbonding BigQuantity     `json:"selfUnbonding"`
	Delegated     BigQuantity     `json:"delegated"`
	Effective     BigQuantity     `json:"effective"`
	Required      BigQuantity     `json:"required"`
	Eligible      bool            `json:"eligible"`
	Ineligible    string          `json:"ineligible,omitempty"` // why not
	Reputation    Quantity        `json:"reputation"`
	Exiting       bool            `json:"exiting"`
	ExitAt        Quantity        `json:"exitAt"`
	Joined        Quantity        `json:"joined"`
	Jobs          Quantity        `json:"jobs"`
	Successes     Quantity        `json:"successes"`
	Timeouts      Quantity        `json:"timeouts"`
	Slashes       Quantity        `json:"slashes"`
	Earned        BigQuantity     `json:"earned"`
	Slashed       BigQuantity     `json:"slashed"`
	Delegations   []DelegatorJSON `json:"delegations"`
}

// RatesJSON is a runner's rate card in base units.
type RatesJSON struct {
	PerJob   BigQuantity `json:"perJob"`
	PerToken BigQuantity `json:"perToken"`
	PerKB    BigQuantity `json:"perKb"`
}

// DelegatorJSON is one delegation at a runner.
type DelegatorJSON struct {
	Delegator Address       `json:"delegator"`
	Amount    BigQuantity   `json:"amount"`
	Earned    BigQuantity   `json:"earned"`
	Unbonding []TrancheJSON `json:"unbonding"`
}

// TrancheJSON is unbonding stake and the height it is released at.
type TrancheJSON struct {
	Amount  BigQuantity `json:"amount"`
	Release Quantity    `json:"release"`
}

// JobJSON is cowboy_getJob's result (docs/rpc.md).
type JobJSON struct {
	ID             Quantity        `json:"id"`
	Requester      Address         `json:"requester"`
	Kind           string          `json:"kind"`
	Model          string          `json:"model,omitempty"`
	Domain         string          `json:"domain,omitempty"`
	Input          json.RawMessage `json:"input"`
	ResultSchema   string          `json:"resultSchema,omitempty"`
	Trust          string          `json:"trust"`
	Committee      Quantity        `json:"committee"`
	Threshold      Quantity        `json:"threshold"`
	MaxPrice       BigQuantity     `json:"maxPrice"`
	Tip            BigQuantity     `json:"tip"`
	MaxTokens      Quantity        `json:"maxTokens"`
	MaxWallMS      Quantity        `json:"maxWallMs"`
	TimeoutBlocks  Quantity        `json:"timeoutBlocks"`
	Seed           Quantity        `json:"seed"`
	Callback       string          `json:"callback,omitempty"`
	VoteField      string          `json:"voteField,omitempty"`
	MatchFields    []string        `json:"matchFields,omitempty"`
	SimilarityBps  Quantity        `json:"similarityBps"`
	Posted         Quantity        `json:"posted"`
	CommitDeadline Quantity        `json:"commitDeadline"`
	Deadline       Quantity        `json:"deadline"`
	RevealOpen     Quantity        `json:"revealOpen"`
	// IndividualReveals is the first height members other than the
	// aggregator may reveal their own results at (once revealOpen is set).
	IndividualReveals Quantity `json:"individualReveals"`
	// Reviews are the members whose reported usage went to review.
	Reviews       []UsageReviewJSON `json:"reviews"`
	Members       []Address         `json:"members"`
	Aggregator    Address           `json:"aggregator"`
	Commits       []Bytes           `json:"commits"` // per member; empty: none yet
	Reveals       []*RevealJSON     `json:"reveals"` // per member; null: none yet
	Phase         string            `json:"phase"`
	Outcome       string            `json:"outcome,omitempty"`
	Output        string            `json:"output,omitempty"`
	Error         string            `json:"error,omitempty"`
	Payment       BigQuantity       `json:"payment"`
	Refund        BigQuantity       `json:"refund"`
	Burned        BigQuantity       `json:"burned"`
	Treasury      BigQuantity       `json:"treasury"`
	Winners       []Address         `json:"winners"`
	Slashed       []Address         `json:"slashed"`
	Penalized     []Address         `json:"penalized"`
	Settled       Quantity          `json:"settled"`
	DeliverAt     Quantity          `json:"deliverAt"`
	Delivered     Quantity          `json:"delivered"`
	CallbackError string            `json:"callbackError,omitempty"`
	// The continuation's receipt, once Delivered: success, and what the
	// actor paid for it.
	CallbackOK     bool        `json:"callbackOk"`
	CallbackCycles Quantity    `json:"callbackCycles"`
	CallbackCells  Quantity    `json:"callbackCells"`
	CallbackFee    BigQuantity `json:"callbackFee"`
	// ContinuationReceipt is the continuation's receipt id in the block
	// receipt store (cowboy_getTransactionReceipt), once Delivered.
	ContinuationReceipt *Hash `json:"continuationReceipt,omitempty"`
	// The challenge window of an economic_bond job: the payment held
	// until challengeEnd, and a challenge's re-execution job and outcome;
	// parent is the job a re-execution checks.
	Held             BigQuantity `json:"held"`
	ChallengeEnd     Quantity    `json:"challengeEnd"`
	Challenger       *Address    `json:"challenger,omitempty"`
	ChallengeJob     Quantity    `json:"challengeJob"`
	ChallengeOutcome string      `json:"challengeOutcome,omitempty"`
	Parent           Quantity    `json:"parent"`
}

// UsageReviewJSON is a member paid on the expected usage instead of what
// it reported.
type UsageReviewJSON struct {
	Member   Address  `json:"member"`
	Reported Quantity `json:"reported"`
	Expected Quantity `json:"expected"`
}

// RevealJSON is one member's revealed result.
type RevealJSON struct {
	Status     Quantity `json:"status"`
	Output     string   `json:"output"`
	Usage      Quantity `json:"usage"`
	Height     Quantity `json:"height"`
	Aggregated bool     `json:"aggregated"`
}

func addrsJSON(l []types.Address) []Address {
	out := make([]Address, len(l))
	for i, a := range l {
		out[i] = Address(a)
	}
	return out
}

func bq(v *big.Int) BigQuantity {
	if v == nil {
		v = new(big.Int)
	}
	return *NewBigQuantity(v)
}

func text(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return fmt.Sprintf("0x%x", b)
}

// NewJobJSON renders a job.
func NewJobJSON(j *runner.Job) *JobJSON {
	s := j.Spec
	out := &JobJSON{ID: Quantity(j.ID), Requester: Address(j.Requester), Kind: s.Kind, Model: s.Model, Domain: s.Domain,
		Input: json.RawMessage("null"), ResultSchema: s.ResultSchema, Trust: s.Trust, Committee: Quantity(s.Committee),
		Threshold: Quantity(s.Threshold), MaxPrice: bq(s.MaxPrice), MaxTokens: Quantity(s.MaxTokens), MaxWallMS: Quantity(s.MaxWallMS),
		TimeoutBlocks: Quantity(s.TimeoutBlocks), Seed: Quantity(s.Seed), Callback: s.Callback, VoteField: s.VoteField,
		MatchFields: s.MatchFields, SimilarityBps: Quantity(s.SimilarityBps), Posted: Quantity(j.Posted),
		CommitDeadline: Quantity(j.CommitDeadline), Deadline: Quantity(j.Deadline), RevealOpen: Quantity(j.RevealOpen),
		Members: addrsJSON(j.Members), Aggregator: Address(j.Aggregator), Phase: runner.PhaseName(j.Phase),
		Outcome: j.Outcome, Output: text(j.Output), Error: j.Error, Payment: bq(j.Payment), Refund: bq(j.Refund),
		Burned: bq(j.Burned), Treasury: bq(j.Treasury), Winners: addrsJSON(j.Winners), Slashed: addrsJSON(j.Slashed),
		Penalized: addrsJSON(j.Penalized), Settled: Quantity(j.Settled), DeliverAt: Quantity(j.DeliverAt),
		Delivered: Quantity(j.Delivered), CallbackError: j.CallbackError, CallbackOK: j.CallbackOK,
		CallbackCycles: Quantity(j.CallbackCycles), CallbackCells: Quantity(j.CallbackCells), CallbackFee: bq(j.CallbackFee),
		Tip: bq(j.Tip), IndividualReveals: Quantity(j.IndividualReveals()), Reviews: []UsageReviewJSON{}}
	if j.Delivered != 0 {
		h := Hash(runner.ContinuationID(j.ID))
		out.ContinuationReceipt = &h
	}
	for _, r := range j.Reviews {
		out.Reviews = append(out.Reviews, UsageReviewJSON{Member: Address(r.Member), Reported: Quantity(r.Reported), Expected: Quantity(r.Expected)})
	}
	if b, err := cbor.ToJSON(s.Input); err == nil {
		out.Input = b
	}
	out.Held, out.ChallengeEnd, out.ChallengeJob = bq(j.Held), Quantity(j.ChallengeEnd), Quantity(j.ChallengeJob)
	out.ChallengeOutcome, out.Parent = j.ChallengeOutcome, Quantity(j.Parent)
	if j.ChallengeJob != 0 {
		c := Address(j.Challenger)
		out.Challenger = &c
	}
	for _, c := range j.Commits {
		out.Commits = append(out.Commits, Bytes(c))
	}
	for _, r := range j.Reveals {
		if r == nil {
			out.Reveals = append(out.Reveals, nil)
			continue
		}
		out.Reveals = append(out.Reveals, &RevealJSON{Status: Quantity(r.Status), Output: text(r.Output), Usage: Quantity(r.Usage),
			Height: Quantity(r.Height), Aggregated: r.Aggregated})
	}
	return out
}

func newRunnerJSON(rs Runners, a types.Address, r *runner.Runner) (*RunnerJSON, error) {
	p, err := rs.RunnerParams()
	if err != nil {
		return nil, err
	}
	why := r.Eligible(p)
	out := &RunnerJSON{Address: Address(a), Endpoint: r.Endpoint, Models: r.Models, Domains: r.Domains,
		Rates:       RatesJSON{PerJob: bq(r.Rates.PerJob), PerToken: bq(r.Rates.PerToken), PerKB: bq(r.Rates.PerKB)},
		MaxJobValue: bq(r.MaxJobValue), CommissionBps: Quantity(r.CommissionBps), SelfBond: bq(r.SelfBond),
		SelfUnbonding: bq(r.SelfUnbonding), Delegated: bq(r.Delegated), Effective: bq(r.Effective()),
		Required: bq(p.RequiredStake(r.MaxJobValue)), Eligible: why == "", Ineligible: why,
		Reputation: Quantity(r.Reputation), Exiting: r.Exiting, ExitAt: Quantity(r.ExitAt), Joined: Quantity(r.Joined),
		Jobs: Quantity(r.Jobs), Successes: Quantity(r.Successes), Timeouts: Quantity(r.Timeouts), Slashes: Quantity(r.Slashes),
		Earned: bq(r.Earned), Slashed: bq(r.Slashed), Delegations: []DelegatorJSON{}}
	for _, da := range r.Delegators {
		d, err := rs.RunnerDelegation(a, da)
		if err != nil {
			return nil, err
		}
		if d == nil {
			continue
		}
		dj := DelegatorJSON{Delegator: Address(da), Amount: bq(d.Amount), Earned: bq(d.Earned), Unbonding: []TrancheJSON{}}
		for _, t := range d.Unbonding {
			dj.Unbonding = append(dj.Unbonding, TrancheJSON{Amount: bq(t.Amount), Release: Quantity(t.Release)})
		}
		out.Delegations = append(out.Delegations, dj)
	}
	return out, nil
}

func runnersOf(b Backend, name string) (Runners, *Error) {
	r, ok := b.(Runners)
	if !ok {
		return nil, newError(CodeMethodNotFound, "method %s is not served by this node", name)
	}
	return r, nil
}

// cowboy_getRunner(address) shows one runner, or null.
func getRunner(_ context.Context, b Backend, p *params) (any, *Error) {
	rs, perr := runnersOf(b, "cowboy_getRunner")
	if perr != nil {
		return nil, perr
	}
	a, perr := p.address(0)
	if perr != nil {
		return nil, perr
	}
	r, err := rs.RunnerRecord(a)
	if err != nil {
		return nil, internal(err)
	}
	if r == nil {
		return nil, nil
	}
	out, err := newRunnerJSON(rs, a, r)
	if err != nil {
		return nil, internal(err)
	}
	return out, nil
}

// cowboy_getRunners() lists every registered runner.
func getRunners(_ context.Context, b Backend, _ *params) (any, *Error) {
	rs, perr := runnersOf(b, "cowboy_getRunners")
	if perr != nil {
		return nil, perr
	}
	l, err := rs.RunnerAddresses()
	if err != nil {
		return nil, internal(err)
	}
	out := make([]*RunnerJSON, 0, len(l))
	for _, a := range l {
		r, err := rs.RunnerRecord(a)
		if err != nil {
			return nil, internal(err)
		}
		if r == nil {
			continue
		}
		rj, err := newRunnerJSON(rs, a, r)
		if err != nil {
			return nil, internal(err)
		}
		out = append(out, rj)
	}
	return out, nil
}

// cowboy_getJob(id) shows one job, or null.
func getJob(_ context.Context, b Backend, p *params) (any, *Error) {
	rs, perr := runnersOf(b, "cowboy_getJob")
	if perr != nil {
		return nil, perr
	}
	var id Quantity
	if perr := p.decode(0, "job id", &id); perr != nil {
		return nil, perr
	}
	j, err := rs.Job(uint64(id))
	if err != nil {
		return nil, internal(err)
	}
	if j == nil {
		return nil, nil
	}
	return NewJobJSON(j), nil
}

// JobFilterJSON is cowboy_getJobs's optional parameter: jobs newest first,
// at most Limit (default 50, at most MaxJobsListed), only those with
// Member on the committee, posted by Requester, or still open.
type JobFilterJSON struct {
	Member    *Address  `json:"member,omitempty"`
	Requester *Address  `json:"requester,omitempty"`
	Open      bool      `json:"open,omitempty"`
	Limit     *Quantity `json:"limit,omitempty"`
}

// MaxJobsListed bounds one cowboy_getJobs answer; MaxJobsScanned bounds
// the records it reads.
const (
	MaxJobsListed  = 500
	MaxJobsScanned = 10_000
)

// cowboy_getJobs([filter]) lists jobs, newest first.
func getJobs(_ context.Context, b Backend, p *params) (any, *Error) {
	rs, perr := runnersOf(b, "cowboy_getJobs")
	if perr != nil {
		return nil, perr
	}
	var f JobFilterJSON
	if p.has(0) {
		if perr := p.object(0, "job filter", &f); perr != nil {
			return nil, perr
		}
	}
	limit := 50
	if f.Limit != nil {
		limit = int(min(uint64(*f.Limit), MaxJobsListed))
	}
	n, err := rs.JobCount()
	if err != nil {
		return nil, internal(err)
	}
	out := []*JobJSON{}
	for id, scanned := n, 0; id >= 1 && len(out) < limit && scanned < MaxJobsScanned; id, scanned = id-1, scanned+1 {
		j, err := rs.Job(id)
		if err != nil {
			return nil, internal(err)
		}
		if j == nil {
			continue
		}
		if f.Member != nil && !slices.Contains(j.Members, types.Address(*f.Member)) {
			continue
		}
		if f.Requester != nil && j.Requester != types.Address(*f.Requester) {
			continue
		}
		if f.Open && (j.Phase == runner.PhaseSettled || j.Phase == runner.PhaseFailed) {
			continue
		}
		out = append(out, NewJobJSON(j))
	}
	return out, nil
}

// Runner reads one runner (cowboy_getRunner); an error wrapping
// ErrNotFound when a is not registered.
func (c *Client) Runner(ctx context.Context, a types.Address) (*RunnerJSON, error) {
	var out *RunnerJSON
	if err := c.Call(ctx, &out, "cowboy_getRunner", Address(a)); err != nil {
		return nil, err
	}
	if out == nil {
		return nil, fmt.Errorf("%s is not a registered runner: %w", a, ErrNotFound)
	}
	return out, nil
}

// Runners lists the registered runners (cowboy_getRunners).
func (c *Client) Runners(ctx context.Context) ([]RunnerJSON, error) {
	var out []RunnerJSON
	if err := c.Call(ctx, &out, "cowboy_getRunners"); err != nil {
		return nil, err
	}
	return out, nil
}

// Job reads one job (cowboy_getJob); an error wrapping ErrNotFound when
// there is none.
func (c *Client) Job(ctx context.Context, id uint64) (*JobJSON, error) {
	var out *JobJSON
	if err := c.Call(ctx, &out, "cowboy_getJob", Quantity(id)); err != nil {
		return nil, err
	}
	if out == nil {
		return nil, fmt.Errorf("no job %d: %w", id, ErrNotFound)
	}
	return out, nil
}

// Jobs lists jobs newest first (cowboy_getJobs).
func (c *Client) Jobs(ctx context.Context, f JobFilterJSON) ([]JobJSON, error) {
	var out []JobJSON
	if err := c.Call(ctx, &out, "cowboy_getJobs", f); err != nil {
		return nil, err
	}
	return out, nil
}

// RunnerParams reads the runner market's parameters
// (cowboy_getRunnerParams).
func (c *Client) RunnerParams(ctx context.Context) (*RunnerParamsJSON, error) {
	var out RunnerParamsJSON
	if err := c.Call(ctx, &out, "cowboy_getRunnerParams"); err != nil {
		return nil, err
	}
	return &out, nil
}
