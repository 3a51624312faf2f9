package runner

import (
	"errors"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strings"

	"github.com/fxamacker/cbor/v2"

	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/types"
)

// norm gives a record read from an older or partial encoding zero amounts
// instead of nil ones.
func (r *Runner) norm() *Runner {
	for _, p := range []**big.Int{&r.Rates.PerJob, &r.Rates.PerToken, &r.Rates.PerKB, &r.MaxJobValue, &r.SelfBond, &r.Delegated, &r.Earned, &r.Slashed, &r.SelfUnbonding} {
		if *p == nil {
			*p = zero()
		}
	}
	return r
}

func (d *Delegation) norm() *Delegation {
	if d.Amount == nil {
		d.Amount = zero()
	}
	if d.Earned == nil {
		d.Earned = zero()
	}
	return d
}

// profile is the part of a runner record its operator chooses.
type profile struct {
	endpoint    string
	models      []string
	domains     []string
	rates       Rates
	maxJobValue *big.Int
	commission  uint64
}

const profileForm = "[endpoint, [model…], [domain…], {per_job, per_token, per_kb}, max_job_value, commission_bps]"

func decodeProfile(args []cbor.RawMessage) (profile, error) {
	var p profile
	if len(args) != 6 {
		return p, fmt.Errorf("takes 6 arguments, got %d: want %s", len(args), profileForm)
	}
	var err error
	if p.endpoint, err = arg[string](args[0], "endpoint"); err != nil {
		return p, err
	}
	if len(p.endpoint) > MaxEndpointBytes || !(strings.HasPrefix(p.endpoint, "http://") || strings.HasPrefix(p.endpoint, "https://")) {
		return p, fmt.Errorf("endpoint must be an http:// or https:// URL of at most %d bytes, got %q", MaxEndpointBytes, p.endpoint)
	}
	if p.models, err = capList(args[1], "models"); err != nil {
		return p, err
	}
	if p.domains, err = capList(args[2], "http domains"); err != nil {
		return p, err
	}
	var rates map[string]*big.Int
	if rates, err = arg[map[string]*big.Int](args[3], "rate card"); err != nil {
		return p, err
	}
	for _, k := range slices.Sorted(maps.Keys(rates)) { // sorted: the first error is every node's
		v := rates[k]
		if v == nil || v.Sign() < 0 {
			return p, fmt.Errorf("rate card %s must be a non-negative integer", k)
		}
		switch k {
		case "per_job":
			p.rates.PerJob = v
		case "per_token":
			p.rates.PerToken = v
		case "per_kb":
			p.rates.PerKB = v
		default:
			return p, fmt.Errorf("rate card has unknown key %q: want per_job, per_token, per_kb", k)
		}
	}
	for _, r := range []**big.Int{&p.rates.PerJob, &p.rates.PerToken, &p.rates.PerKB} {
		if *r == nil {
			*r = zero()
		}
	}
	if p.maxJobValue, err = amountArg(args[4], "max_job_value"); err != nil {
		return p, err
	}
	if p.commission, err = arg[uint64](args[5], "commission_bps"); err != nil {
		return p, err
	}
	if p.commission > 10_000 {
		return p, fmt.Errorf("commission_bps %d exceeds 10000", p.commission)
	}
	return p, nil
}

func capList(raw cbor.RawMessage, what string) ([]string, error) {
	l, err := arg[[]string](raw, what)
	if err != nil {
		return nil, err
	}
	if len(l) > MaxCapabilities {
		return nil, fmt.Errorf("%s: at most %d, got %d", what, MaxCapabilities, len(l))
	}
	for _, s := range l {
		if s == "" || len(s) > 128 {
			return nil, fmt.Errorf("%s: each must be 1 to 128 bytes, got %q", what, s)
		}
	}
	l = slices.Clone(l)
	slices.Sort(l)
	return slices.Compact(l), nil
}

func (p profile) apply(r *Runner) {
	r.Endpoint, r.Models, r.Domains, r.Rates = p.endpoint, p.models, p.domains, p.rates
	r.MaxJobValue, r.CommissionBps = p.maxJobValue, p.commission
}

// checkStake refuses a runner that would not meet §5.2 with the given
// self-bond: effective ≥ max(10,000 CBY, 1.5 × max job value) and
// self-bond ≥ 10% of effective.
func checkStake(p Params, r *Runner) error {
	need := p.RequiredStake(r.MaxJobValue)
	if r.Effective().Cmp(need) < 0 {
		return fmt.Errorf("effective stake %s is below max(%s, 1.5 × max_job_value) = %s base units (§5.2)", r.Effective(), types.FormatCBY(p.StakeFloor), need)
	}
	if !selfBondOK(p, r.SelfBond, r.Delegated) {
		return fmt.Errorf("self-bond %s is below %d basis points of the effective stake %s (MIN_SELF_BOND_BPS, §5.2)", r.SelfBond, p.MinSelfBondBps, r.Effective())
	}
	return nil
}

func register(st *state.StateDB, c Call, args []cbor.RawMessage) (map[string]any, error) {
	p, err := decodeProfile(args)
	if err != nil {
		return nil, err
	}
	old, err := ReadRunner(st, c.From)
	if err != nil {
		return nil, err
	}
	if old != nil {
		return nil, fmt.Errorf("%s is already a runner: use update", c.From)
	}
	r := (&Runner{SelfBond: new(big.Int).Set(c.Value), Reputation: c.P.InitialReputation, Joined: c.Height}).norm()
	p.apply(r)
	if err := checkStake(c.P, r); err != nil {
		return nil, err
	}
	if err := addToIndex(st, c.From); err != nil {
		return nil, err
	}
	if err := st.SubBalance(c.From, c.Value); err != nil {
		return nil, fmt.Errorf("self-bond: %w", err)
	}
	st.AddBalance(RegistryAddress, c.Value)
	writeRunner(st, c.From, r)
	return map[string]any{"runner": c.From[:], "self_bond": c.Value}, nil
}

func update(st *state.StateDB, c Call, args []cbor.RawMessage) (map[string]any, error) {
	p, err := decodeProfile(args)
	if err != nil {
		return nil, err
	}
	r, err := activeRunner(st, c.From)
	if err != nil {
		return nil, err
	}
	p.apply(r)
	r.SelfBond.Add(r.SelfBond, c.Value)
	if err := checkStake(c.P, r); err != nil {
		return nil, err
	}
	if err := st.SubBalance(c.From, c.Value); err != nil {
		return nil, fmt.Errorf("self-bond: %w", err)
	}
	st.AddBalance(RegistryAddress, c.Value)
	writeRunner(st, c.From, r)
	return map[string]any{"runner": c.From[:], "self_bond": r.SelfBond}, nil
}

func activeRunner(st *state.StateDB, a types.Address) (*Runner, error) {
	r, err := ReadRunner(st, a)
	if err != nil {
		return nil, err
	}
	if r == nil {
		return nil, fmt.Errorf("%s is not a registered runner", a)
	}
	r.norm()
	if r.Exiting {
		return nil, fmt.Errorf("runner %s is exiting", a)
	}
	return r, nil
}

func delegate(st *state.StateDB, c Call, args []cbor.RawMessage) (map[string]any, error) {
	if len(args) != 1 {
		return nil, fmt.Errorf("takes 1 argument, got %d: want [runner]", len(args))
	}
	ra, err := addrArg(args[0], "runner")
	if err != nil {
		return nil, err
	}
	if c.Value.Sign() <= 0 {
		return nil, errors.New("delegate needs a positive value: the stake delegated")
	}
	if ra == c.From {
		return nil, errors.New("a runner bonds its own stake with update, not delegate")
	}
	r, err := activeRunner(st, ra)
	if err != nil {
		return nil, err
	}
	d, err := ReadDelegation(st, ra, c.From)
	if err != nil {
		return nil, err
	}
	if d == nil {
		if uint64(len(r.Delegators)) >= c.P.MaxDelegators {
			return nil, fmt.Errorf("runner %s has its maximum of %d delegators (§13)", ra, c.P.MaxDelegators)
		}
		d = &Delegation{}
		i, _ := slices.BinarySearchFunc(r.Delegators, c.From, cmpAddr)
		r.Delegators = slices.Insert(r.Delegators, i, c.From)
	}
	d.norm()
	newDelegated := new(big.Int).Add(r.Delegated, c.Value)
	if !selfBondOK(c.P, r.SelfBond, newDelegated) {
		return nil, fmt.Errorf("runner %s's self-bond %s would fall below 10%% of its effective stake (MIN_SELF_BOND_BPS, §5.2): it can take at most %s base units more", ra, r.SelfBond, maxMoreDelegation(c.P, r))
	}
	if err := st.SubBalance(c.From, c.Value); err != nil {
		return nil, fmt.Errorf("delegation: %w", err)
	}
	st.AddBalance(RegistryAddress, c.Value)
	d.Amount.Add(d.Amount, c.Value)
	r.Delegated = newDelegated
	writeDelegation(st, ra, c.From, d)
	writeRunner(st, ra, r)
	return map[string]any{"runner": ra[:], "delegator": c.From[:], "amount": d.Amount}, nil
}

// maxMoreDelegation is 9 × self-bond − delegated: what keeps the self-bond
// at 10%.
func maxMoreDelegation(p Params, r *Runner) *big.Int {
	m := new(big.Int).Mul(r.SelfBond, new(big.Int).SetUint64(10_000-p.MinSelfBondBps))
	m.Quo(m, new(big.Int).SetUint64(p.MinSelfBondBps))
	m.Sub(m, r.Delegated)
	if m.Sign() < 0 {
		return zero()
	}
	return m
}

func undelegate(st *state.StateDB, c Call, args []cbor.RawMessage) (map[string]any, error) {
	if len(args) != 2 {
		return nil, fmt.Errorf("takes 2 arguments, got %d: want [runner, amount]", len(args))
	}
	ra, err := addrArg(args[0], "runner")
	if err != nil {
		return nil, err
	}
	amt, err := amountArg(args[1], "amount")
	if err != nil {
		return nil, err
	}
	if err := noValue(c); err != nil {
		return nil, err
	}
	r, err := ReadRunner(st, ra)
	if err != nil {
		return nil, err
	}
	d, err := ReadDelegation(st, ra, c.From)
	if err != nil {
		return nil, err
	}
	if r == nil || d == nil {
		return nil, fmt.Errorf("%s has no delegation at %s", c.From, ra)
	}
	r.norm()
	d.norm()
	if amt.Sign() == 0 || amt.Cmp(d.Amount) > 0 {
		return nil, fmt.Errorf("amount must be 1 … %s (the bonded delegation), got %s", d.Amount, amt)
	}
	if uint64(len(d.Unbonding)) >= c.P.MaxTranches {
		return nil, fmt.Errorf("%d unbonding tranches already at %s: withdraw the matured ones first (max_active_tranches_per_delegator, §13)", len(d.Unbonding), ra)
	}
	d.Amount.Sub(d.Amount, amt)
	d.Unbonding = append(d.Unbonding, Tranche{Amount: amt, Release: c.Height + c.P.UnbondingBlocks})
	r.Delegated.Sub(r.Delegated, amt)
	writeDelegation(st, ra, c.From, d)
	writeRunner(st, ra, r)
	return map[string]any{"runner": ra[:], "delegator": c.From[:], "amount": amt, "release": c.Height + c.P.UnbondingBlocks}, nil
}

func exit(st *state.StateDB, c Call, args []cbor.RawMessage) (map[string]any, error) {
	if len(args) != 0 {
		return nil, fmt.Errorf("takes no arguments, got %d", len(args))
	}
	if err := noValue(c); err != nil {
		return nil, err
	}
	r, err := activeRunner(st, c.From)
	if err != nil {
		return nil, err
	}
	release := c.Height + c.P.UnbondingBlocks
	r.Exiting, r.ExitAt = true, c.Height
	r.SelfUnbonding, r.SelfBond = r.SelfBond, zero()
	// Every delegation starts unbonding with the runner (its delegators
	// need not act); the tranche bound does not apply to this one.
	for _, da := range r.Delegators {
		d, err := ReadDelegation(st, c.From, da)
		if err != nil {
			return nil, err
		}
		if d == nil {
			continue
		}
		d.norm()
		if d.Amount.Sign() > 0 {
			d.Unbonding = append(d.Unbonding, Tranche{Amount: d.Amount, Release: release})
			d.Amount = zero()
			writeDelegation(st, c.From, da, d)
		}
	}
	r.Delegated = zero()
	writeRunner(st, c.From, r)
	return map[string]any{"runner": c.From[:], "release": release}, nil
}

func withdraw(st *state.StateDB, c Call, args []cbor.RawMessage) (map[string]any, error) {
	if len(args) != 1 {
		return nil, fmt.Errorf("takes 1 argument, got %d: want [runner]", len(args))
	}
	ra, err := addrArg(args[0], "runner")
	if err != nil {
		return nil, err
	}
	if err := noValue(c); err != nil {
		return nil, err
	}
	r, err := ReadRunner(st, ra)
	if err != nil {
		return nil, err
	}
	if r == nil {
		return nil, fmt.Errorf("%s is not a registered runner", ra)
	}
	r.norm()
	out := zero()
	if c.From == ra {
		if !r.Exiting {
			return nil, errors.New("a runner withdraws its self-bond only after exit")
		}
		if c.Height < r.ExitAt+c.P.UnbondingBlocks {
			return nil, fmt.Errorf("the self-bond unbonds until height %d (now %d)", r.ExitAt+c.P.UnbondingBlocks, c.Height)
		}
		out.Set(r.SelfUnbonding)
		r.SelfUnbonding = zero()
	} else {
		d, err := ReadDelegation(st, ra, c.From)
		if err != nil {
			return nil, err
		}
		if d == nil {
			return nil, fmt.Errorf("%s has no delegation at %s", c.From, ra)
		}
		d.norm()
		keep := d.Unbonding[:0]
		for _, t := range d.Unbonding {
			if t.Release <= c.Height {
				out.Add(out, t.Amount)
			} else {
				keep = append(keep, t)
			}
		}
		if out.Sign() == 0 {
			return nil, fmt.Errorf("nothing to withdraw at height %d: no unbonding tranche of %s at %s has matured", c.Height, c.From, ra)
		}
		d.Unbonding = keep
		writeDelegation(st, ra, c.From, d)
		if d.Amount.Sign() == 0 && len(d.Unbonding) == 0 {
			if i, ok := slices.BinarySearchFunc(r.Delegators, c.From, cmpAddr); ok {
				r.Delegators = slices.Delete(r.Delegators, i, i+1)
			}
		}
	}
	if err := st.SubBalance(RegistryAddress, out); err != nil {
		return nil, fmt.Errorf("registry balance: %w", err)
	}
	st.AddBalance(c.From, out)
	if r.Exiting && r.SelfUnbonding.Sign() == 0 && len(r.Delegators) == 0 {
		// Nothing is left bonded: the runner leaves the registry.
		st.Set(runnerKey(ra), nil)
		if err := removeFromIndex(st, ra); err != nil {
			return nil, err
		}
	} else {
		writeRunner(st, ra, r)
	}
	return map[string]any{"runner": ra[:], "to": c.From[:], "amount": out}, nil
}

func publishModel(st *state.StateDB, c Call, args []cbor.RawMessage) (map[string]any, error) {
	if len(args) != 2 {
		return nil, fmt.Errorf("takes 2 arguments, got %d: want [model_id, name]", len(args))
	}
	id, err := arg[[]byte](args[0], "model_id")
	if err != nil || len(id) != 32 {
		return nil, fmt.Errorf("model_id must be 32 bytes, keccak256(weights‖arch‖tokenizer‖license) (§5.1)")
	}
	name, err := arg[string](args[1], "name")
	if err != nil {
		return nil, err
	}
	if name == "" || len(name) > 128 {
		return nil, fmt.Errorf("name must be 1 to 128 bytes")
	}
	if c.Value.Cmp(c.P.ModelDeposit) != 0 {
		return nil, fmt.Errorf("publishing a model takes a deposit of exactly %s base units (§5.1), got %s", c.P.ModelDeposit, c.Value)
	}
	m, err := ReadModel(st, [32]byte(id))
	if err != nil {
		return nil, err
	}
	if m != nil {
		return nil, fmt.Errorf("model %x is already published", id)
	}
	if err := st.SubBalance(c.From, c.Value); err != nil {
		return nil, fmt.Errorf("deposit: %w", err)
	}
	st.AddBalance(RegistryAddress, c.Value)
	st.Set(modelKey([32]byte(id)), mustMarshal(&Model{Publisher: c.From, Name: name, Deposit: c.Value, Height: c.Height}))
	return map[string]any{"model_id": id, "name": name}, nil
}

func retractModel(st *state.StateDB, c Call, args []cbor.RawMessage) (map[string]any, error) {
	if len(args) != 1 {
		return nil, fmt.Errorf("takes 1 argument, got %d: want [model_id]", len(args))
	}
	if err := noValue(c); err != nil {
		return nil, err
	}
	id, err := arg[[]byte](args[0], "model_id")
	if err != nil || len(id) != 32 {
		return nil, fmt.Errorf("model_id must be 32 bytes")
	}
	m, err := ReadModel(st, [32]byte(id))
	if err != nil {
		return nil, err
	}
	if m == nil {
		return nil, fmt.Errorf("model %x is not published", id)
	}
	if m.Publisher != c.From {
		return nil, fmt.Errorf("only the publisher %s may retract model %x", m.Publisher, id)
	}
	if err := st.SubBalance(RegistryAddress, m.Deposit); err != nil {
		return nil, fmt.Errorf("registry balance: %w", err)
	}
	st.AddBalance(c.From, m.Deposit)
	st.Set(modelKey([32]byte(id)), nil)
	return map[string]any{"model_id": id, "refund": m.Deposit}, nil
}

func noValue(c Call) error {
	if c.Value.Sign() != 0 {
		return fmt.Errorf("takes no value, got %s base units", c.Value)
	}
	return nil
}
