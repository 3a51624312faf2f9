package runner

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/fxamacker/cbor/v2"

	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/types"
)

// The challenge window of economic_bond ("N-of-M with Dispute": runners
// stake a bond, disputers may prove incorrect results within a fixed
// window; §13 challenge_window 15 min, challenge_bond 100 CBY). The
// result is delivered at once, but its payment stays in escrow until
// ChallengeEnd. Anyone but the runner may challenge with the bond plus a
// max_price escrow: the job is re-executed by a committee of three that
// excludes the runner, under majority_vote.
//
//   - The committee's accepted answer differs from the runner's: the
//     runner is proven dishonest and slashed, the held payment goes back
//     to the requester, the challenger gets the bond back.
//   - It agrees: the bond is burned (§8.4) and the runner is paid now.
//   - The re-execution fails (no committee, no quorum): inconclusive; the
//     bond comes back and the runner is paid now.
//
// The challenger is the re-execution job's requester: it pays that job
// like any other and gets its refund.

// openChallengeWindow schedules the release of j's held payment at the
// first height from h + ChallengeWindowBlocks with room in its deadline
// list (a full list only delays the release).
func openChallengeWindow(st *state.StateDB, p Params, j *Job, h uint64) error {
	for end := h + p.ChallengeWindowBlocks; end < h+p.ChallengeWindowBlocks+64; end++ {
		l, err := readList[uint64](st, wakeupKey(end), "wakeups")
		if err != nil {
			return err
		}
		if len(l) < MaxWakeupsPerHeight {
			writeList(st, wakeupKey(end), append(l, j.ID))
			j.ChallengeEnd = end
			return nil
		}
	}
	return release(st, p, j) // no room at all: pay now rather than never
}

// release pays j's held payment: 10% burned, 1% treasury, the rest to its
// runner and its delegators.
func release(st *state.StateDB, _ Params, j *Job) error {
	amt := j.Held
	if amt.Sign() == 0 {
		return nil
	}
	if err := st.SubBalance(DispatcherAddress, amt); err != nil {
		return fmt.Errorf("escrow: %w", err)
	}
	burn, treasury := bps(amt, BurnShareBps), bps(amt, TreasuryShareBps)
	st.Burn(burn)
	st.AddBalance(TreasuryAddress, treasury)
	j.Burned, j.Treasury = burn, treasury
	j.Held = zero()
	pool := new(big.Int).Sub(amt, burn)
	return credit(st, j.Members[0], pool.Sub(pool, treasury))
}

func challenge(st *state.StateDB, c Call, args []cbor.RawMessage) (map[string]any, error) {
	if len(args) != 1 {
		return nil, fmt.Errorf("takes 1 argument, got %d: want [job_id]", len(args))
	}
	j, err := jobArg(st, args[0])
	if err != nil {
		return nil, err
	}
	switch {
	case j.Spec.Trust != TrustBond:
		return nil, fmt.Errorf("job %d is %s: only economic_bond results have a challenge window", j.ID, j.Spec.Trust)
	case j.ChallengeEnd == 0 || j.Held.Sign() == 0 && j.ChallengeJob == 0:
		return nil, fmt.Errorf("job %d has no open challenge window (it is %s)", j.ID, PhaseName(j.Phase))
	case j.ChallengeJob != 0:
		return nil, fmt.Errorf("job %d is already challenged (re-execution job %d)", j.ID, j.ChallengeJob)
	case c.Height > j.ChallengeEnd:
		return nil, fmt.Errorf("late challenge: job %d's window closed at height %d, now %d", j.ID, j.ChallengeEnd, c.Height)
	case c.From == j.Members[0]:
		return nil, errors.New("a runner cannot challenge its own result")
	}
	want := new(big.Int).Add(c.P.ChallengeBond, j.Spec.MaxPrice)
	if c.Value.Cmp(want) != 0 {
		return nil, fmt.Errorf("a challenge takes the %s bond plus max_price %s for the re-execution: %s base units, got %s", types.FormatCBY(c.P.ChallengeBond), j.Spec.MaxPrice, want, c.Value)
	}
	if err := st.SubBalance(c.From, c.P.ChallengeBond); err != nil {
		return nil, fmt.Errorf("bond: %w", err)
	}
	st.AddBalance(DispatcherAddress, c.P.ChallengeBond)
	spec := j.Spec
	spec.Trust, spec.Committee, spec.Threshold, spec.Callback = TrustMajority, c.P.ReexecutionCommittee, c.P.ReexecutionCommittee/2+1, ""
	spec.VoteField, spec.MatchFields, spec.Tip = "", nil, zero()
	j.Challenger, j.Bond = c.From, new(big.Int).Set(c.P.ChallengeBond)
	// The parent is written before the re-execution is posted: a
	// re-execution that finds no committee resolves at once and reads it.
	j.ChallengeJob = JobCount(st) + 1
	writeJob(st, j)
	id, cycles, err := postSpec(st, c.P, spec, Post{Requester: c.From, Escrow: spec.MaxPrice, Height: c.Height, Beacon: c.Beacon}, []types.Address{j.Members[0]}, j.ID)
	c.extra(cycles)
	if err != nil {
		return nil, err
	}
	return map[string]any{"job_id": j.ID, "reexecution": id}, nil
}

// resolveChallenge applies a finished re-execution to the job it checks.
func resolveChallenge(st *state.StateDB, p Params, child *Job, h uint64) error {
	j, err := ReadJob(st, child.Parent)
	if err != nil || j == nil {
		return err
	}
	refundBond := func() error {
		if err := st.SubBalance(DispatcherAddress, j.Bond); err != nil {
			return fmt.Errorf("escrow: %w", err)
		}
		st.AddBalance(j.Challenger, j.Bond)
		return nil
	}
	switch {
	case child.Phase != PhaseSettled:
		j.ChallengeOutcome = "inconclusive: " + child.Error
		if err := refundBond(); err != nil {
			return err
		}
		if err := release(st, p, j); err != nil {
			return err
		}
	case sameAnswer(j.Output, child.Output):
		j.ChallengeOutcome = "rejected: the re-execution agrees"
		if err := st.SubBalance(DispatcherAddress, j.Bond); err != nil {
			return fmt.Errorf("escrow: %w", err)
		}
		st.Burn(j.Bond)
		if err := release(st, p, j); err != nil {
			return err
		}
	default:
		j.ChallengeOutcome = "upheld: the re-execution's answer differs"
		if err := slash(st, p, j.Members[0], h); err != nil {
			return err
		}
		j.Slashed = append(j.Slashed, j.Members[0])
		if err := refundBond(); err != nil {
			return err
		}
		if err := st.SubBalance(DispatcherAddress, j.Held); err != nil {
			return fmt.Errorf("escrow: %w", err)
		}
		st.AddBalance(j.Requester, j.Held)
		j.Refund = new(big.Int).Add(j.Refund, j.Held)
		j.Payment = zero()
		j.Held = zero()
	}
	writeJob(st, j)
	return nil
}

// SameAnswer is how a challenge's re-execution is compared with the
// result it checks (and what a watching daemon compares before it
// challenges): canonical JSON, or the trimmed text, as majority_vote
// compares without a vote field.
func SameAnswer(a, b []byte) bool { return sameAnswer(a, b) }

// sameAnswer compares two results as majority_vote does without a vote
// field: canonical JSON, or the trimmed text.
func sameAnswer(a, b []byte) bool {
	probe := &Job{Spec: JobSpec{Trust: TrustMajority}}
	ka, _ := voteKey(probe, a)
	kb, _ := voteKey(probe, b)
	return ka == kb
}
