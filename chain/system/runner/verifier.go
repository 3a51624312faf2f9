package runner

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"
	"slices"

	"github.com/fxamacker/cbor/v2"

	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
)

// Result statuses a runner reports with its output (the rows of the
// payment table it can claim; the output then says why).
const (
	StatusOK         uint8 = 0
	StatusImpossible uint8 = 1 // bounds too tight (max_tokens reached, …)
	StatusActorFault uint8 = 2 // malformed input
	StatusExternal   uint8 = 3 // API down, model unavailable
)

// Outcomes, one per row of the payment table ("Payment and Failure
// Handling"), plus no committee at all.
const (
	OutcomeSuccess    = "success"
	OutcomeRunner     = "runner_fault"
	OutcomeImpossible = "impossible"
	OutcomeActor      = "actor_fault"
	OutcomeExternal   = "external_fault"
	OutcomeNoRunners  = "no_committee"
)

// ResultDigest is what a runner signs for its result: keccak256(
// "cowboy/runner-result/v1" ‖ job id ‖ status ‖ usage ‖ keccak256(output)),
// ids and usage 8-byte big-endian.
func ResultDigest(jobID uint64, status uint8, usage uint64, output []byte) [32]byte {
	var b [17]byte
	binary.BigEndian.PutUint64(b[:8], jobID)
	b[8] = status
	binary.BigEndian.PutUint64(b[9:], usage)
	oh := crypto.Keccak256(output)
	return crypto.Keccak256([]byte("cowboy/runner-result/v1"), b[:], oh[:])
}

// Commitment is hash(result ‖ sig) of §5.3 Commit: keccak256(output ‖ sig)
// with sig the 65-byte r ‖ s ‖ y_parity signature of ResultDigest.
func Commitment(output, sig []byte) [32]byte { return crypto.Keccak256(output, sig) }

// SignResult signs a result with a runner's key: the sig to reveal and
// the commitment to commit (for the daemon, the simulator and tests).
func SignResult(k *crypto.PrivateKey, jobID uint64, status uint8, usage uint64, output []byte) (sig []byte, commitment [32]byte) {
	v, r, s := k.Sign(ResultDigest(jobID, status, usage, output))
	sig = append(append(append(make([]byte, 0, 65), r[:]...), s[:]...), v)
	return sig, Commitment(output, sig)
}

func signer(jobID uint64, status uint8, usage uint64, output, sig []byte) (types.Address, error) {
	if len(sig) != 65 {
		return types.Address{}, fmt.Errorf("signature must be 65 bytes r‖s‖y_parity, got %d", len(sig))
	}
	pub, err := crypto.Recover(ResultDigest(jobID, status, usage, output), sig[64], [32]byte(sig[:32]), [32]byte(sig[32:64]))
	if err != nil {
		return types.Address{}, fmt.Errorf("signature: %w", err)
	}
	return crypto.PubkeyToAddress(pub), nil
}

func jobArg(st *state.StateDB, raw cbor.RawMessage) (*Job, error) {
	id, err := arg[uint64](raw, "job_id")
	if err != nil {
		return nil, err
	}
	j, err := ReadJob(st, id)
	if err != nil {
		return nil, err
	}
	if j == nil {
		return nil, fmt.Errorf("no job %d", id)
	}
	return j, nil
}

func (j *Job) member(a types.Address) int { return slices.Index(j.Members, a) }

func (j *Job) phaseErr(want string) error {
	switch j.Phase {
	case PhaseSettled, PhaseFailed:
		return fmt.Errorf("job %d is %s (%s): it takes no more %s", j.ID, PhaseName(j.Phase), j.Outcome, want)
	case PhaseCommitting:
		return fmt.Errorf("job %d is committing until every member commits or height %d: reveals come after", j.ID, j.CommitDeadline)
	}
	return fmt.Errorf("job %d is revealing: commits closed", j.ID)
}

func commit(st *state.StateDB, c Call, args []cbor.RawMessage) (map[string]any, error) {
	if len(args) != 2 {
		return nil, fmt.Errorf("takes 2 arguments, got %d: want [job_id, commitment]", len(args))
	}
	if err := noValue(c); err != nil {
		return nil, err
	}
	j, err := jobArg(st, args[0])
	if err != nil {
		return nil, err
	}
	cm, err := arg[[]byte](args[1], "commitment")
	if err != nil || len(cm) != 32 {
		return nil, errors.New("commitment must be 32 bytes, keccak256(output ‖ sig)")
	}
	i := j.member(c.From)
	if i < 0 {
		return nil, fmt.Errorf("%s is not on job %d's committee", c.From, j.ID)
	}
	if j.Phase != PhaseCommitting {
		return nil, j.phaseErr("commits")
	}
	if c.Height > j.CommitDeadline {
		return nil, fmt.Errorf("late commit: job %d's commit deadline was height %d, now %d", j.ID, j.CommitDeadline, c.Height)
	}
	if len(j.Commits[i]) != 0 {
		return nil, fmt.Errorf("%s already committed to job %d", c.From, j.ID)
	}
	j.Commits[i] = cm
	if j.commits() == len(j.Members) {
		j.Phase, j.RevealOpen = PhaseRevealing, c.Height
	}
	writeJob(st, j)
	return map[string]any{"job_id": j.ID, "member": c.From[:], "phase": PhaseName(j.Phase)}, nil
}

func (j *Job) commits() (n int) {
	for _, c := range j.Commits {
		if len(c) != 0 {
			n++
		}
	}
	return n
}

// entry is one decoded reveal entry [member, status, output, usage, sig].
type entry struct {
	member types.Address
	rv     Reveal
}

func decodeEntries(raw cbor.RawMessage) ([]entry, error) {
	items, err := arg[[]cbor.RawMessage](raw, "reveal entries")
	if err != nil {
		return nil, err
	}
	if len(items) == 0 {
		return nil, errors.New("reveal needs at least one entry [member, status, output, usage, sig]")
	}
	if uint64(len(items)) > MaxCommitteeBound {
		return nil, fmt.Errorf("%d entries exceed the largest committee (%d)", len(items), MaxCommitteeBound)
	}
	out := make([]entry, len(items))
	for k, it := range items {
		var f []cbor.RawMessage
		if err := types.Unmarshal(it, &f); err != nil || len(f) != 5 {
			return nil, fmt.Errorf("entry %d must be [member, status, output, usage, sig]", k)
		}
		e := &out[k]
		if e.member, err = addrArg(f[0], "member"); err != nil {
			return nil, fmt.Errorf("entry %d: %w", k, err)
		}
		if e.rv.Status, err = arg[uint8](f[1], "status"); err != nil || e.rv.Status > StatusExternal {
			return nil, fmt.Errorf("entry %d: status must be 0 ok, 1 impossible, 2 actor fault or 3 external fault", k)
		}
		if e.rv.Output, err = arg[[]byte](f[2], "output"); err != nil {
			return nil, fmt.Errorf("entry %d: %w", k, err)
		}
		if len(e.rv.Output) > MaxResultBytes {
			return nil, fmt.Errorf("entry %d: output of %d bytes exceeds the 64 KiB result limit (§5.4)", k, len(e.rv.Output))
		}
		if e.rv.Usage, err = arg[uint64](f[3], "usage"); err != nil {
			return nil, fmt.Errorf("entry %d: %w", k, err)
		}
		if e.rv.Sig, err = arg[[]byte](f[4], "sig"); err != nil {
			return nil, fmt.Errorf("entry %d: %w", k, err)
		}
	}
	return out, nil
}

func reveal(st *state.StateDB, c Call, args []cbor.RawMessage) (map[string]any, error) {
	if len(args) != 2 {
		return nil, fmt.Errorf("takes 2 arguments, got %d: want [job_id, [[member, status, output, usage, sig], …]]", len(args))
	}
	if err := noValue(c); err != nil {
		return nil, err
	}
	j, err := jobArg(st, args[0])
	if err != nil {
		return nil, err
	}
	entries, err := decodeEntries(args[1])
	if err != nil {
		return nil, err
	}
	c.extra(uint64(len(entries)) * RevealCycles)
	if j.member(c.From) < 0 {
		return nil, fmt.Errorf("%s is not on job %d's committee", c.From, j.ID)
	}
	if j.Phase != PhaseRevealing {
		return nil, j.phaseErr("reveals")
	}
	if c.Height > j.Deadline {
		return nil, fmt.Errorf("late reveal: job %d's deadline was height %d, now %d", j.ID, j.Deadline, c.Height)
	}
	aggregated := c.From == j.Aggregator
	if !aggregated {
		// §5.3: others reveal only after aggregator_timeout_blocks, and
		// only their own result.
		if open := j.IndividualReveals(); c.Height < open {
			return nil, fmt.Errorf("only the aggregator %s reveals job %d until height %d (aggregator_timeout_blocks); individual reveals after", j.Aggregator, j.ID, open)
		}
		if len(entries) != 1 || entries[0].member != c.From {
			return nil, errors.New("a member that is not the aggregator reveals exactly one entry, its own")
		}
	}
	seen := map[types.Address]bool{}
	for k, e := range entries {
		i := j.member(e.member)
		switch {
		case i < 0:
			return nil, fmt.Errorf("entry %d: %s is not on job %d's committee", k, e.member, j.ID)
		case seen[e.member] || j.Reveals[i] != nil:
			return nil, fmt.Errorf("entry %d: %s's result is already revealed", k, e.member)
		case len(j.Commits[i]) == 0:
			return nil, fmt.Errorf("entry %d: %s never committed to job %d", k, e.member, j.ID)
		}
		seen[e.member] = true
		who, err := signer(j.ID, e.rv.Status, e.rv.Usage, e.rv.Output, e.rv.Sig)
		if err != nil {
			return nil, fmt.Errorf("entry %d: %w", k, err)
		}
		if who != e.member {
			return nil, fmt.Errorf("entry %d: forged signature: it is %s's, not %s's", k, who, e.member)
		}
		if cm := Commitment(e.rv.Output, e.rv.Sig); !bytes.Equal(cm[:], j.Commits[i]) {
			return nil, fmt.Errorf("entry %d: keccak256(output ‖ sig) does not match %s's commitment", k, e.member)
		}
	}
	for _, e := range entries {
		rv := e.rv
		rv.Height, rv.Aggregated = c.Height, aggregated
		j.Reveals[j.member(e.member)] = &rv
	}
	data := map[string]any{"job_id": j.ID, "revealed": len(entries)}
	if j.revealed() == j.commits() {
		c.extra(SettleCycles)
		if err := settle(st, c.P, j, c.Height); err != nil {
			return nil, err
		}
		data["outcome"] = j.Outcome
	} else {
		writeJob(st, j)
	}
	return data, nil
}

func (j *Job) revealed() (n int) {
	for _, r := range j.Reveals {
		if r != nil {
			n++
		}
	}
	return n
}

// judge is what verification concluded.
type judge struct {
	outcome string
	output  []byte
	err     string
	winners []int // members paid
	liars   []int // slashed: proven dishonest
	invalid []int // reputation penalty only
}

// settle verifies the revealed results in the job's mode, pays, refunds,
// slashes and penalizes, and schedules the continuation (§5.3 Verify,
// Payout; "Payment and Failure Handling").
func settle(st *state.StateDB, p Params, j *Job, h uint64) error {
	var entries []int
	for i, r := range j.Reveals {
		if r != nil {
			entries = append(entries, i)
		}
	}
	v := verify(j, entries)
	j.Outcome = v.outcome
	j.Output = v.output
	j.Error = v.err
	for _, i := range v.liars {
		if err := slash(st, p, j.Members[i], h); err != nil {
			return err
		}
		j.Slashed = append(j.Slashed, j.Members[i])
	}
	penal := slices.Clone(v.invalid)
	for i := range j.Members {
		if j.Reveals[i] == nil {
			penal = append(penal, i) // committed nothing or revealed nothing: a timeout
		}
	}
	slices.Sort(penal)
	for _, i := range penal {
		if err := penalize(st, p, j.Members[i], j.Reveals[i] == nil); err != nil {
			return err
		}
		j.Penalized = append(j.Penalized, j.Members[i])
	}
	payment, err := payWinners(st, p, j, v)
	if err != nil {
		return err
	}
	for _, rv := range j.Reviews {
		if err := demote(st, rv.Member, p.RepUsage); err != nil {
			return err
		}
	}
	if v.outcome == OutcomeSuccess {
		for _, i := range v.winners {
			if err := reward(st, p, j.Members[i]); err != nil {
				return err
			}
		}
	}
	return finish(st, p, j, h, v.winners, payment)
}

// payWinners pays the job per the payment table and returns the payment.
func payWinners(st *state.StateDB, p Params, j *Job, v judge) (*big.Int, error) {
	if len(v.winners) == 0 {
		return zero(), nil
	}
	costs := make([]*big.Int, len(v.winners))
	total := zero()
	usage := reviewUsage(p, j, v)
	for k, i := range v.winners {
		r, err := ReadRunner(st, j.Members[i])
		if err != nil {
			return nil, err
		}
		if r == nil { // left the registry meanwhile: paid nothing
			costs[k] = zero()
			continue
		}
		r.norm()
		if v.outcome == OutcomeActor {
			costs[k] = new(big.Int).Set(r.Rates.PerJob) // minimum fee: gas cost recovery
		} else {
			costs[k] = r.Rates.Cost(j.Spec.Kind, usage[k]) // usage × rates (pro rata on progress for faults)
		}
		total.Add(total, costs[k])
	}
	payment := new(big.Int).Set(total)
	if payment.Cmp(j.Spec.MaxPrice) > 0 {
		payment.Set(j.Spec.MaxPrice) // min(reported_usage × rates, max_price) (§17.7)
	}
	if v.outcome == OutcomeSuccess && j.Tip.Sign() > 0 {
		// The payment table's Success row: 89% of the payment + tip to the
		// runners, 10% burned, 1% to the Treasury. Every other row
		// refunds the tip with the rest of the escrow.
		payment.Add(payment, j.Tip)
		if total.Sign() == 0 { // free runners share the tip equally
			for k := range costs {
				costs[k] = big.NewInt(1)
			}
			total.SetInt64(int64(len(costs)))
		}
	}
	if payment.Sign() == 0 {
		return payment, nil
	}
	if j.Spec.Trust == TrustBond && v.outcome == OutcomeSuccess {
		// economic_bond: the payment waits in escrow for the challenge
		// window (challenge.go).
		j.Held = new(big.Int).Set(payment)
		return payment, nil
	}
	burn := bps(payment, BurnShareBps)
	treasury := bps(payment, TreasuryShareBps)
	pool := new(big.Int).Sub(payment, burn)
	pool.Sub(pool, treasury) // 89% and the rounding dust
	if err := st.SubBalance(DispatcherAddress, payment); err != nil {
		return nil, fmt.Errorf("escrow: %w", err)
	}
	st.Burn(burn)
	st.AddBalance(TreasuryAddress, treasury)
	j.Burned, j.Treasury = burn, treasury
	// The aggregator's bonus (§5.3) when its aggregated reveal carried the
	// accepted result.
	if agg := j.member(j.Aggregator); v.outcome == OutcomeSuccess && slices.Contains(v.winners, agg) && j.Reveals[agg].Aggregated {
		bonus := bps(pool, p.AggregatorBonusBps)
		if err := credit(st, j.Aggregator, bonus); err != nil {
			return nil, err
		}
		pool.Sub(pool, bonus)
	}
	left := new(big.Int).Set(pool)
	for k, i := range v.winners {
		share := new(big.Int).Set(left)
		if k < len(v.winners)-1 {
			if total.Sign() == 0 {
				share.SetInt64(0)
			} else {
				share.Mul(pool, costs[k]).Quo(share, total)
			}
		}
		left.Sub(left, share)
		if err := credit(st, j.Members[i], share); err != nil {
			return nil, err
		}
	}
	return payment, nil
}

// UsageReview records a member whose reported usage exceeded the review
// threshold (Params.UsageReviewBps of the expected usage): it was paid on
// the expected usage and lost Params.RepUsage reputation.
type UsageReview struct {
	_        struct{} `cbor:",toarray"`
	Member   types.Address
	Reported uint64
	Expected uint64
}

// expectedUsage is what the job is expected to use, or 0 when the chain
// cannot tell: the median (lower middle) of the usages the paid members
// reported when there are two or more; for one LLM report under a
// max_tokens bound, the input's bytes plus max_tokens (a token is at least
// one byte of input, and the output stops at max_tokens).
func expectedUsage(j *Job, winners []int) uint64 {
	if len(winners) >= 2 {
		us := make([]uint64, len(winners))
		for k, i := range winners {
			us[k] = j.Reveals[i].Usage
		}
		slices.Sort(us)
		return us[(len(us)-1)/2]
	}
	if j.Spec.Kind == KindLLM && j.Spec.MaxTokens > 0 {
		return uint64(len(j.Spec.Input)) + j.Spec.MaxTokens
	}
	return 0
}

// reviewUsage applies "Runner Resource Accounting": reported usage is
// trusted, but more than UsageReviewBps of the expected usage (">2×
// expected usage triggers automatic review") is reviewed at once: the
// member is paid on the expected usage, loses RepUsage reputation, and
// the job lists it in Reviews. It is not slashed: an outlier is not proof
// of misreporting. It returns the usage each winner is paid on.
func reviewUsage(p Params, j *Job, v judge) []uint64 {
	out := make([]uint64, len(v.winners))
	exp := expectedUsage(j, v.winners)
	for k, i := range v.winners {
		u := j.Reveals[i].Usage
		out[k] = u
		if v.outcome == OutcomeActor || exp == 0 {
			continue
		}
		over := new(big.Int).Mul(new(big.Int).SetUint64(u), big.NewInt(10_000))
		limit := new(big.Int).Mul(new(big.Int).SetUint64(exp), new(big.Int).SetUint64(p.UsageReviewBps))
		if over.Cmp(limit) > 0 {
			out[k] = exp
			j.Reviews = append(j.Reviews, UsageReview{Member: j.Members[i], Reported: u, Expected: exp})
		}
	}
	return out
}

// credit pays a runner's share: delegators get their stake's part less the
// runner's commission (CIP-13), the runner the rest.
func credit(st *state.StateDB, a types.Address, amt *big.Int) error {
	if amt.Sign() == 0 {
		return nil
	}
	r, err := ReadRunner(st, a)
	if err != nil {
		return err
	}
	if r == nil {
		st.AddBalance(a, amt)
		return nil
	}
	r.norm()
	own := new(big.Int).Set(amt)
	if eff := r.Effective(); r.Delegated.Sign() > 0 && eff.Sign() > 0 {
		attributed := new(big.Int).Mul(amt, r.Delegated)
		attributed.Quo(attributed, eff)
		net := new(big.Int).Sub(attributed, bps(attributed, r.CommissionBps))
		for _, da := range r.Delegators {
			d, err := ReadDelegation(st, a, da)
			if err != nil {
				return err
			}
			if d == nil {
				continue
			}
			d.norm()
			if d.Amount.Sign() == 0 {
				continue
			}
			part := new(big.Int).Mul(net, d.Amount)
			part.Quo(part, r.Delegated)
			st.AddBalance(da, part)
			d.Earned.Add(d.Earned, part)
			writeDelegation(st, a, da, d)
			own.Sub(own, part)
		}
	}
	st.AddBalance(a, own)
	r.Earned.Add(r.Earned, own)
	writeRunner(st, a, r)
	return nil
}

// reward raises the reputation of a member whose result was accepted.
func reward(st *state.StateDB, p Params, a types.Address) error {
	r, err := ReadRunner(st, a)
	if err != nil || r == nil {
		return err
	}
	r.norm()
	r.Successes++
	r.Reputation = min(MaxReputation, r.Reputation+p.RepSuccess)
	writeRunner(st, a, r)
	return nil
}

// slash burns SlashBps of a's self-bond (bonded or unbonding) and of every
// delegation and unbonding tranche at a (§5.2: delegated stake is
// slashable alongside the self-bond; §8.4: slashed stake is burned).
func slash(st *state.StateDB, p Params, a types.Address, _ uint64) error {
	r, err := ReadRunner(st, a)
	if err != nil || r == nil {
		return err
	}
	r.norm()
	burned := zero()
	cut := func(v *big.Int) {
		x := bps(v, p.SlashBps)
		v.Sub(v, x)
		burned.Add(burned, x)
	}
	before := new(big.Int).Set(burned)
	cut(r.SelfBond)
	cut(r.SelfUnbonding)
	r.Slashed.Add(r.Slashed, new(big.Int).Sub(burned, before))
	for _, da := range r.Delegators {
		d, err := ReadDelegation(st, a, da)
		if err != nil {
			return err
		}
		if d == nil {
			continue
		}
		d.norm()
		b0 := new(big.Int).Set(burned)
		cut(d.Amount)
		r.Delegated.Sub(r.Delegated, new(big.Int).Sub(burned, b0))
		for k := range d.Unbonding {
			cut(d.Unbonding[k].Amount)
		}
		writeDelegation(st, a, da, d)
	}
	if err := st.SubBalance(RegistryAddress, burned); err != nil {
		return fmt.Errorf("registry balance: %w", err)
	}
	st.Burn(burned)
	r.Slashes++
	r.Reputation -= min(r.Reputation, p.RepSlashed)
	writeRunner(st, a, r)
	return nil
}

// penalize lowers a's reputation for an operational failure (§12.2:
// reputation penalties only, no stake).
func penalize(st *state.StateDB, p Params, a types.Address, timeout bool) error {
	r, err := ReadRunner(st, a)
	if err != nil || r == nil {
		return err
	}
	r.norm()
	pen := p.RepInvalid
	if timeout {
		pen = p.RepTimeout
		r.Timeouts++
	}
	r.Reputation -= min(r.Reputation, pen)
	writeRunner(st, a, r)
	return nil
}

// demote lowers a's reputation by n (a usage review).
func demote(st *state.StateDB, a types.Address, n uint64) error {
	r, err := ReadRunner(st, a)
	if err != nil || r == nil {
		return err
	}
	r.norm()
	r.Reputation -= min(r.Reputation, n)
	writeRunner(st, a, r)
	return nil
}

// finish refunds the rest of the escrow, records the outcome and schedules
// the continuation in the next block.
func finish(st *state.StateDB, p Params, j *Job, h uint64, winners []int, payment *big.Int) error {
	if j.Held == nil {
		j.Held = zero()
	}
	refund := new(big.Int).Sub(j.Escrow, payment)
	if err := st.SubBalance(DispatcherAddress, refund); err != nil {
		return fmt.Errorf("escrow: %w", err)
	}
	st.AddBalance(j.Requester, refund)
	j.Payment, j.Refund, j.Settled = payment, refund, h
	for _, i := range winners {
		j.Winners = append(j.Winners, j.Members[i])
	}
	j.Phase = PhaseFailed
	if j.Outcome == OutcomeSuccess {
		j.Phase = PhaseSettled
	}
	if j.Held.Sign() > 0 {
		if err := openChallengeWindow(st, p, j, h); err != nil {
			return err
		}
	}
	if j.Spec.Callback != "" {
		j.DeliverAt = h + 1
		l, err := readList[uint64](st, deliveryKey(h+1), "deliveries")
		if err != nil {
			return err
		}
		writeList(st, deliveryKey(h+1), append(l, j.ID))
	}
	writeJob(st, j)
	if j.Parent != 0 {
		return resolveChallenge(st, p, j, h)
	}
	return nil
}
