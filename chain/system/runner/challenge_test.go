package runner

import (
	"math/big"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/types"
)

// bondJob registers four runners and settles an economic_bond job whose
// runner answered out; it returns the job.
func bondJob(t *testing.T, out string) (*env, *Job) {
	e := newEnv(t, 4)
	for i := 0; i < 4; i++ {
		e.register(i, 10_000, 1_000)
	}
	j := e.post(user(1), spec(TrustBond, 1, cby(10), nil))
	entries := e.commitAll(j, map[types.Address]answer{j.Members[0]: {StatusOK, out, 100}})
	e.must(VerifierAddress, j.Members[0], nil, "reveal", j.ID, entries)
	return e, e.job(j.ID)
}

func TestChallengeWindowHoldsThePayment(t *testing.T) {
	e, j := bondJob(t, "yes")
	r := j.Members[0]
	if j.Phase != PhaseSettled || j.Held.Cmp(milli(1_100)) != 0 || j.DeliverAt != j.Settled+1 {
		t.Fatalf("phase %s held %s deliver %d", PhaseName(j.Phase), j.Held, j.DeliverAt)
	}
	bal := new(big.Int).Set(e.st.Balance(r))
	if e.st.Balance(DispatcherAddress).Cmp(j.Held) != 0 {
		t.Fatalf("escrow %s, want the held %s", e.st.Balance(DispatcherAddress), j.Held)
	}
	e.endBlocks(j.ChallengeEnd - 1)
	if e.st.Balance(r).Cmp(bal) != 0 {
		t.Fatal("paid before the challenge window closed")
	}
	e.endBlocks(j.ChallengeEnd)
	j = e.job(j.ID)
	if got := new(big.Int).Sub(e.st.Balance(r), bal); got.Cmp(milli(979)) != 0 || j.Held.Sign() != 0 || e.st.Balance(DispatcherAddress).Sign() != 0 {
		t.Fatalf("runner got %s (want 89%% of 1.1 CBY), held %s", got, j.Held)
	}
	if e.st.Balance(TreasuryAddress).Cmp(milli(11)) != 0 || j.Burned.Cmp(milli(110)) != 0 {
		t.Fatalf("treasury %s burned %s", e.st.Balance(TreasuryAddress), j.Burned)
	}
}

// reexecute has the re-execution committee of job id answer out.
func reexecute(e *env, id uint64, out string) *Job {
	c := e.job(id)
	answers := map[types.Address]answer{}
	for _, m := range c.Members {
		answers[m] = answer{StatusOK, out, 10}
	}
	entries := e.commitAll(c, answers)
	e.must(VerifierAddress, c.Aggregator, nil, "reveal", c.ID, entries)
	return e.job(id)
}

func TestChallengeOutcomes(t *testing.T) {
	for _, tc := range []struct {
		name, runnerSays, committeeSays string
		outcome                         string
		slashed                         bool
		bondBack                        bool
	}{
		{"upheld: the runner lied", "no", "yes", "upheld", true, true},
		{"rejected: the runner was right", "yes", "yes", "rejected", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, j := bondJob(t, tc.runnerSays)
			r, challenger := j.Members[0], user(4)
			bond0, req0, run0 := e.rec(r).SelfBond, new(big.Int).Set(e.st.Balance(user(1))), new(big.Int).Set(e.st.Balance(r))
			supply := e.st.Supply()
			ch0 := new(big.Int).Set(e.st.Balance(challenger))
			e.must(VerifierAddress, challenger, new(big.Int).Add(dp.ChallengeBond, cby(10)), "challenge", j.ID)
			j = e.job(j.ID)
			if j.ChallengeJob == 0 || j.Challenger != challenger {
				t.Fatalf("challenge not recorded: %+v", j)
			}
			child := reexecute(e, j.ChallengeJob, tc.committeeSays)
			if child.Phase != PhaseSettled || child.Parent != j.ID {
				t.Fatalf("re-execution %s (%s)", PhaseName(child.Phase), child.Error)
			}
			for _, m := range child.Members {
				if m == r {
					t.Fatal("the challenged runner sat on its own re-execution")
				}
			}
			j = e.job(j.ID)
			if !strings.HasPrefix(j.ChallengeOutcome, tc.outcome) {
				t.Fatalf("outcome %q", j.ChallengeOutcome)
			}
			if got := e.rec(r).SelfBond.Cmp(bond0) < 0; got != tc.slashed {
				t.Fatalf("slashed %v, want %v", got, tc.slashed)
			}
			// The challenger paid the re-execution like any requester, and
			// the bond came back or was burned.
			spent := new(big.Int).Sub(ch0, e.st.Balance(challenger))
			want := new(big.Int).Set(child.Payment)
			if !tc.bondBack {
				want.Add(want, dp.ChallengeBond)
			}
			if spent.Cmp(want) != 0 {
				t.Fatalf("challenger spent %s, want %s", spent, want)
			}
			if tc.slashed {
				if e.st.Balance(user(1)).Cmp(req0) <= 0 || j.Payment.Sign() != 0 || e.st.Balance(r).Cmp(run0) != 0 {
					t.Fatal("upheld: the requester should get the held payment back and the runner nothing")
				}
			} else if e.st.Balance(r).Cmp(run0) <= 0 || new(big.Int).Sub(supply, e.st.Supply()).Cmp(dp.ChallengeBond) < 0 {
				t.Fatal("rejected: the runner should be paid and the bond burned")
			}
			if e.st.Balance(DispatcherAddress).Sign() != 0 || j.Held.Sign() != 0 {
				t.Fatalf("escrow keeps %s", e.st.Balance(DispatcherAddress))
			}
		})
	}
}

func TestChallengeWithoutACommitteeIsInconclusive(t *testing.T) {
	e := newEnv(t, 2)
	e.register(0, 10_000, 0)
	j := e.post(user(1), spec(TrustBond, 1, cby(10), nil))
	entries := e.commitAll(j, map[types.Address]answer{j.Members[0]: {StatusOK, "yes", 100}})
	e.must(VerifierAddress, j.Members[0], nil, "reveal", j.ID, entries)
	ch0 := new(big.Int).Set(e.st.Balance(user(4)))
	e.must(VerifierAddress, user(4), new(big.Int).Add(dp.ChallengeBond, cby(10)), "challenge", j.ID)
	j = e.job(j.ID)
	if !strings.HasPrefix(j.ChallengeOutcome, "inconclusive") || e.st.Balance(user(4)).Cmp(ch0) != 0 || j.Held.Sign() != 0 {
		t.Fatalf("outcome %q, challenger %s → %s, held %s", j.ChallengeOutcome, ch0, e.st.Balance(user(4)), j.Held)
	}
}

func TestChallengeRefusals(t *testing.T) {
	right := new(big.Int).Add(dp.ChallengeBond, cby(10))
	for _, tc := range []struct {
		name  string
		setup func(e *env, j *Job) (from types.Address, value *big.Int, id uint64)
		want  string
	}{
		{"wrong value", func(e *env, j *Job) (types.Address, *big.Int, uint64) { return user(4), dp.ChallengeBond, j.ID }, "bond plus max_price"},
		{"by the runner", func(e *env, j *Job) (types.Address, *big.Int, uint64) { return j.Members[0], right, j.ID }, "its own result"},
		{"late", func(e *env, j *Job) (types.Address, *big.Int, uint64) {
			e.height = j.ChallengeEnd + 1
			return user(4), right, j.ID
		}, "late challenge"},
		{"twice", func(e *env, j *Job) (types.Address, *big.Int, uint64) {
			e.must(VerifierAddress, user(5), right, "challenge", j.ID)
			return user(4), right, j.ID
		}, "already challenged"},
		{"not economic_bond", func(e *env, j *Job) (types.Address, *big.Int, uint64) {
			k := e.post(user(2), spec(TrustNone, 1, cby(10), nil))
			return user(4), right, k.ID
		}, "only economic_bond"},
		{"without the balance", func(e *env, j *Job) (types.Address, *big.Int, uint64) {
			e.st.SubBalance(user(4), e.st.Balance(user(4)))
			return user(4), right, j.ID
		}, "bond"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, j := bondJob(t, "yes")
			from, value, id := tc.setup(e, j)
			before := e.money()
			jb := mustMarshal(e.job(id))
			_, err := e.call(VerifierAddress, from, value, "challenge", id)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			if !equalMoney(before, e.money()) || string(jb) != string(mustMarshal(e.job(id))) {
				t.Fatal("a refused challenge moved money or changed the job")
			}
		})
	}
}
