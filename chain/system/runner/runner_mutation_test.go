package runner

import (
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/types"
)

// Tests written against the mutants gremlins left alive in the payment,
// settlement and slashing code (docs/testing.md, "Mutation testing").

// TestChallengeWindowSchedule pins where an economic_bond payment's
// release is scheduled: the first height from settlement +
// ChallengeWindowBlocks whose wakeup list has room, probing 64 heights,
// and paid at once when all 64 are full.
func TestChallengeWindowSchedule(t *testing.T) {
	const settleAt = 2_000 // past ChallengeWindowBlocks (900): h - window must not wrap
	for _, tc := range []struct {
		name    string
		full    int    // wakeup lists filled to MaxWakeupsPerHeight from settleAt + window
		partial int    // entries in the next list after the full ones
		wantEnd uint64 // 0: released at once
	}{
		{"first height free", 0, 0, settleAt + 900},
		{"first height one short of full", 0, MaxWakeupsPerHeight - 1, settleAt + 900},
		{"first height full", 1, 0, settleAt + 901},
		{"63 heights full", 63, 0, settleAt + 963},
		{"all 64 heights full: paid now", 64, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, 4)
			for i := 0; i < 4; i++ {
				e.register(i, 10_000, 0)
			}
			e.height = settleAt
			window := dp.ChallengeWindowBlocks
			fill := func(h uint64, n int) {
				l := make([]uint64, n)
				for k := range l {
					l[k] = 1_000_000 + uint64(k)
				}
				writeList(e.st, wakeupKey(h), l)
			}
			for k := 0; k < tc.full; k++ {
				fill(settleAt+window+uint64(k), MaxWakeupsPerHeight)
			}
			if tc.partial > 0 {
				fill(settleAt+window+uint64(tc.full), tc.partial)
			}
			j := e.post(user(1), spec(TrustBond, 1, cby(10), nil))
			r := j.Members[0]
			bal := new(big.Int).Set(e.st.Balance(r))
			entries := e.commitAll(j, map[types.Address]answer{r: {StatusOK, "yes", 100}})
			e.must(VerifierAddress, r, nil, "reveal", j.ID, entries)
			j = e.job(j.ID)
			if j.Settled != settleAt || j.ChallengeEnd != tc.wantEnd {
				t.Fatalf("settled at %d, challenge end %d, want %d", j.Settled, j.ChallengeEnd, tc.wantEnd)
			}
			paid := new(big.Int).Sub(e.st.Balance(r), bal)
			if tc.wantEnd == 0 {
				// 1.1 CBY (per_job + 100 tokens): 89% to the runner now.
				if paid.Cmp(milli(979)) != 0 || j.Held.Sign() != 0 || e.st.Balance(DispatcherAddress).Sign() != 0 {
					t.Fatalf("runner paid %s, held %s, escrow %s: want 0.979 CBY paid at once", paid, j.Held, e.st.Balance(DispatcherAddress))
				}
				return
			}
			if paid.Sign() != 0 || j.Held.Cmp(milli(1_100)) != 0 {
				t.Fatalf("runner paid %s, held %s: the payment must wait for the window", paid, j.Held)
			}
			l, err := readList[uint64](e.st, wakeupKey(tc.wantEnd), "wakeups")
			if err != nil {
				t.Fatal(err)
			}
			if len(l) > MaxWakeupsPerHeight || !slices.Contains(l, j.ID) {
				t.Fatalf("wakeups at %d: %d entries, job listed %v", tc.wantEnd, len(l), slices.Contains(l, j.ID))
			}
		})
	}
}

// TestChallengeEventAndEscrowRefusal: a challenge reports its
// re-execution job, and a challenger who can pay the bond but not the
// re-execution's max_price is refused with nothing moved.
func TestChallengeEventAndEscrowRefusal(t *testing.T) {
	right := new(big.Int).Add(dp.ChallengeBond, cby(10))
	for _, tc := range []struct {
		name    string
		balance *big.Int // the challenger's balance; nil: funded
		want    string   // refusal; "" accepted
	}{
		{"funded", nil, ""},
		{"bond only", new(big.Int).Set(dp.ChallengeBond), "escrow"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, j := bondJob(t, "yes")
			if tc.balance != nil {
				e.st.SubBalance(user(4), e.st.Balance(user(4)))
				e.st.AddBalance(user(4), tc.balance)
			}
			before := e.money()
			jb := mustMarshal(e.job(j.ID))
			res, err := e.call(VerifierAddress, user(4), right, "challenge", j.ID)
			if tc.want != "" {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("err = %v, want %q", err, tc.want)
				}
				if !equalMoney(before, e.money()) || string(jb) != string(mustMarshal(e.job(j.ID))) {
					t.Fatal("a refused challenge moved money or changed the job")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var ev map[string]uint64
			if len(res.Events) != 1 {
				t.Fatalf("%d events", len(res.Events))
			}
			if err := types.Unmarshal(res.Events[0].Data, &ev); err != nil {
				t.Fatalf("event data: %v", err)
			}
			if got := e.job(j.ID).ChallengeJob; got == 0 || ev["job_id"] != j.ID || ev["reexecution"] != got {
				t.Fatalf("event %v, want job %d and re-execution %d", ev, j.ID, got)
			}
		})
	}
}

// TestCostPerKind: LLM jobs are priced per token, HTTP jobs per KiB
// (records.go Rates.Cost), each plus the per-job fee.
func TestCostPerKind(t *testing.T) {
	r := Rates{PerJob: big.NewInt(5), PerToken: big.NewInt(2), PerKB: big.NewInt(3)}
	for _, tc := range []struct {
		kind  string
		usage uint64
		want  int64
	}{
		{KindLLM, 10, 25},
		{KindHTTP, 10, 35},
		{KindLLM, 0, 5},
		{KindHTTP, 0, 5},
	} {
		if got := r.Cost(tc.kind, tc.usage); got.Cmp(big.NewInt(tc.want)) != 0 {
			t.Errorf("Cost(%s, %d) = %s, want %d", tc.kind, tc.usage, got, tc.want)
		}
	}
}

// TestDeadlines: a commit in the block at the commit deadline, and a
// reveal in the block at the deadline, count (that height's EndBlock runs
// after the block's transactions); one block later each is refused.
func TestDeadlines(t *testing.T) {
	for _, tc := range []struct {
		name   string
		reveal bool   // else commit
		after  uint64 // blocks after the deadline
		want   string
	}{
		{"commit at the deadline", false, 0, ""},
		{"commit one block late", false, 1, "late commit"},
		{"reveal at the deadline", true, 0, ""},
		{"reveal one block late", true, 1, "late reveal"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, 2)
			e.register(0, 10_000, 0)
			j := e.post(user(1), spec(TrustNone, 1, cby(10), nil))
			m := j.Members[0]
			var err error
			if tc.reveal {
				entries := e.commitAll(j, map[types.Address]answer{m: {StatusOK, "yes", 1}})
				e.height = j.Deadline + tc.after
				_, err = e.call(VerifierAddress, m, nil, "reveal", j.ID, entries)
			} else {
				e.height = j.CommitDeadline + tc.after
				_, cm := SignResult(e.key(m), j.ID, StatusOK, 1, []byte("yes"))
				_, err = e.call(VerifierAddress, m, nil, "commit", j.ID, cm[:])
			}
			if tc.want != "" {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("err = %v, want %q", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := PhaseRevealing
			if tc.reveal {
				want = PhaseSettled
			}
			if got := e.job(j.ID); got.Phase != want {
				t.Fatalf("phase %s, want %s", PhaseName(got.Phase), PhaseName(want))
			}
		})
	}
}

// TestRegistryIndex: the runner index is sorted by address whatever the
// order of registration, and holds at most MaxRunners.
func TestRegistryIndex(t *testing.T) {
	for _, order := range [][]int{{0, 1, 2, 3}, {3, 2, 1, 0}, {2, 0, 3, 1}} {
		e := newEnv(t, 4)
		for _, i := range order {
			e.register(i, 10_000, 0)
		}
		got, err := Runners(e.st)
		if err != nil {
			t.Fatal(err)
		}
		want := []types.Address{e.runner(0), e.runner(1), e.runner(2), e.runner(3)}
		slices.SortFunc(want, func(a, b types.Address) int { return strings.Compare(string(a[:]), string(b[:])) })
		if !slices.Equal(got, want) {
			t.Fatalf("order %v: index %x, want %x", order, got, want)
		}
	}

	for _, tc := range []struct {
		name   string
		others int
		want   string
	}{
		{"one seat left", MaxRunners - 1, ""},
		{"full", MaxRunners, "maximum of 1024 runners"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, 1)
			l := make([]types.Address, tc.others)
			for k := range l {
				l[k] = types.Address{0: 0xff, 18: byte(k >> 8), 19: byte(k)}
			}
			slices.SortFunc(l, func(a, b types.Address) int { return strings.Compare(string(a[:]), string(b[:])) })
			writeList(e.st, indexKey, l)
			before := e.money()
			_, err := e.call(RegistryAddress, e.runner(0), cby(10_000), "register", "http://127.0.0.1:1/", []string{"m1"}, []string{"example.com"},
				defaultRates, cby(1_000), uint64(0))
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				if got, _ := Runners(e.st); len(got) != MaxRunners {
					t.Fatalf("index holds %d", len(got))
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			if !equalMoney(before, e.money()) {
				t.Fatal("a refused registration moved money")
			}
		})
	}
}

// revealJob registers three runners and posts a majority_vote job of
// three whose members all commit answer; it returns the job (revealing).
func revealJob(t *testing.T, output string) (*env, *Job, []any) {
	e := newEnv(t, 3)
	for i := 0; i < 3; i++ {
		e.register(i, 10_000, 0)
	}
	j := e.post(user(1), spec(TrustMajority, 3, cby(10), nil))
	answers := map[types.Address]answer{}
	for _, m := range j.Members {
		answers[m] = answer{StatusOK, output, 100}
	}
	entries := e.commitAll(j, answers)
	j = e.job(j.ID)
	if j.Phase != PhaseRevealing {
		t.Fatalf("phase %s after every member committed", PhaseName(j.Phase))
	}
	return e, j, entries
}

// TestRevealWhoAndCost: only the aggregator reveals for others; after
// aggregator_timeout_blocks another member reveals exactly its own entry.
// A reveal costs CallCycles + RevealCycles per entry, plus SettleCycles
// when it settles the job, and its event reports the outcome.
func TestRevealWhoAndCost(t *testing.T) {
	for _, tc := range []struct {
		name    string
		byAgg   bool  // the aggregator reveals, else another member
		late    int64 // blocks after IndividualReveals (may be negative)
		entries []int // indexes into the commit-ordered entries; -1: the revealer's own
		want    string
		cycles  uint64
	}{
		{"aggregator reveals all", true, -2, []int{0, 1, 2}, "", CallCycles + 3*RevealCycles + SettleCycles},
		{"member reveals its own after the timeout", false, 0, []int{-1}, "", CallCycles + RevealCycles},
		{"member reveals before the timeout", false, -1, []int{-1}, "only the aggregator", 0},
		{"member reveals two entries", false, 0, []int{-1, -2}, "exactly one entry, its own", 0},
		{"member reveals another's entry", false, 0, []int{-2}, "exactly one entry, its own", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, j, all := revealJob(t, "yes")
			from := j.Aggregator
			if !tc.byAgg {
				from = j.Members[(j.member(j.Aggregator)+1)%len(j.Members)]
			}
			own, other := all[j.member(from)], all[(j.member(from)+1)%len(j.Members)]
			var entries []any
			for _, k := range tc.entries {
				switch k {
				case -1:
					entries = append(entries, own)
				case -2:
					entries = append(entries, other)
				default:
					entries = append(entries, all[k])
				}
			}
			e.height = uint64(int64(j.IndividualReveals()) + tc.late)
			before := e.money()
			res, err := e.call(VerifierAddress, from, nil, "reveal", j.ID, entries)
			if tc.want != "" {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("err = %v, want %q", err, tc.want)
				}
				if !equalMoney(before, e.money()) || e.job(j.ID).revealed() != 0 {
					t.Fatal("a refused reveal moved money or recorded a result")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if res.CyclesUsed != tc.cycles {
				t.Fatalf("reveal used %d cycles, want %d", res.CyclesUsed, tc.cycles)
			}
			j = e.job(j.ID)
			var ev map[string]any
			if err := types.Unmarshal(res.Events[0].Data, &ev); err != nil {
				t.Fatalf("event data: %v", err)
			}
			if j.revealed() != len(entries) || ev["revealed"] != uint64(len(entries)) {
				t.Fatalf("revealed %d, event %v, want %d", j.revealed(), ev, len(entries))
			}
			if len(entries) == len(j.Members) {
				if j.Outcome != OutcomeSuccess || ev["outcome"] != OutcomeSuccess || j.Payment.Sign() == 0 {
					t.Fatalf("outcome %q, event %v, payment %s", j.Outcome, ev, j.Payment)
				}
			} else if _, ok := ev["outcome"]; ok || j.Phase != PhaseRevealing {
				t.Fatalf("a partial reveal settled: event %v, phase %s", ev, PhaseName(j.Phase))
			}
		})
	}
}

// TestRevealBounds: an output of exactly MaxResultBytes (§5.4) is
// accepted and settles the job, one byte more is refused; a reveal of
// MaxCommitteeBound entries gets past decoding, one more does not.
func TestRevealBounds(t *testing.T) {
	for _, tc := range []struct {
		name string
		size int
		want string
	}{
		{"64 KiB output", MaxResultBytes, ""},
		{"64 KiB + 1 output", MaxResultBytes + 1, "exceeds the 64 KiB result limit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, 1)
			e.register(0, 10_000, 0)
			j := e.post(user(1), spec(TrustNone, 1, cby(10), nil))
			out := strings.Repeat("y", tc.size)
			entries := e.commitAll(j, map[types.Address]answer{j.Members[0]: {StatusOK, out, 100}})
			_, err := e.call(VerifierAddress, j.Members[0], nil, "reveal", j.ID, entries)
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				if j = e.job(j.ID); j.Phase != PhaseSettled || len(j.Output) != tc.size {
					t.Fatalf("phase %s, output of %d bytes", PhaseName(j.Phase), len(j.Output))
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
	for _, tc := range []struct {
		n    int
		want string
	}{
		{MaxCommitteeBound, "not on job"},
		{MaxCommitteeBound + 1, "exceed the largest committee"},
	} {
		e := newEnv(t, 1)
		e.register(0, 10_000, 0)
		j := e.post(user(1), spec(TrustNone, 1, cby(10), nil))
		entries := e.commitAll(j, map[types.Address]answer{j.Members[0]: {StatusOK, "yes", 1}})
		for len(entries) < tc.n {
			entries = append(entries, entries[0])
		}
		_, err := e.call(VerifierAddress, user(3), nil, "reveal", j.ID, entries)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Fatalf("%d entries: err = %v, want %q", tc.n, err, tc.want)
		}
	}
}

// TestPaymentSplit pins how a settled majority_vote job of three pays its
// winners: pro rata to each one's cost (per_job + usage × per_token), a
// tip included; free runners share a tip equally; the aggregator's bonus
// only on success; two winners' usage reviewed against their lower
// report. Every member has commission 0 and no delegators, so a member's
// balance gain is its share.
func TestPaymentSplit(t *testing.T) {
	free := map[string]*big.Int{"per_job": big.NewInt(0), "per_token": big.NewInt(0), "per_kb": big.NewInt(0)}
	for _, tc := range []struct {
		name  string
		rates map[string]*big.Int
		tip   *big.Int
		// per member, in committee order (member 0 is the aggregator: equal
		// reputations): status, output, usage
		answers []answer
		outcome string
		check   func(t *testing.T, j *Job, gain []*big.Int)
	}{
		{"pro rata with a tip", defaultRates, milli(600), []answer{{StatusOK, "yes", 100}, {StatusOK, "yes", 100}, {StatusOK, "yes", 200}}, OutcomeSuccess,
			func(t *testing.T, j *Job, gain []*big.Int) {
				// costs 1.1, 1.1, 1.2 CBY + the 0.6 CBY tip: 4 CBY paid.
				if j.Payment.Cmp(cby(4)) != 0 || gain[1].Sign() <= 0 || gain[2].Cmp(gain[1]) <= 0 || gain[0].Cmp(gain[1]) <= 0 {
					t.Fatalf("payment %s, gains %v: want 4 CBY, more to the larger usage and to the aggregator", j.Payment, gain)
				}
				// share 2 / share 1 = 12 / 11, to the base unit.
				a, b := new(big.Int).Mul(gain[2], big.NewInt(11)), new(big.Int).Mul(gain[1], big.NewInt(12))
				if d := new(big.Int).Sub(a, b); d.CmpAbs(big.NewInt(12)) > 0 {
					t.Fatalf("gains %s and %s are not 12:11", gain[2], gain[1])
				}
			}},
		{"free runners share the tip", free, cby(3), []answer{{StatusOK, "yes", 100}, {StatusOK, "yes", 100}, {StatusOK, "yes", 200}}, OutcomeSuccess,
			func(t *testing.T, j *Job, gain []*big.Int) {
				// 3 CBY: 89% less the aggregator's 5% = 2.53650 CBY, 0.84550 each to the others.
				if j.Payment.Cmp(cby(3)) != 0 || gain[1].Cmp(milli(845_500).Div(milli(845_500), big.NewInt(1_000))) != 0 || gain[2].Cmp(gain[1]) != 0 {
					t.Fatalf("payment %s, gains %v", j.Payment, gain)
				}
			}},
		{"actor fault: per_job each, no aggregator bonus", defaultRates, nil, []answer{{StatusActorFault, "bad input", 5}, {StatusActorFault, "bad input", 5}, {StatusActorFault, "bad input", 5}}, OutcomeActor,
			func(t *testing.T, j *Job, gain []*big.Int) {
				// 3 × per_job = 3 CBY, 89% shared equally: 0.89 CBY each.
				for k, g := range gain {
					if g.Cmp(milli(890)) != 0 {
						t.Fatalf("member %d got %s, want 0.89 CBY (gains %v)", k, g, gain)
					}
				}
			}},
		{"two winners: the larger usage reviewed", defaultRates, nil, []answer{{StatusOK, "yes", 100}, {StatusOK, "yes", 1_000}, {StatusOK, "no", 100}}, OutcomeSuccess,
			func(t *testing.T, j *Job, gain []*big.Int) {
				if len(j.Reviews) != 1 || j.Reviews[0].Member != j.Members[1] || j.Reviews[0].Reported != 1_000 || j.Reviews[0].Expected != 100 {
					t.Fatalf("reviews %+v, want member 1 reviewed at 100", j.Reviews)
				}
				if j.Payment.Cmp(milli(2_200)) != 0 { // both paid on 100 tokens
					t.Fatalf("payment %s, want 2.2 CBY", j.Payment)
				}
				if !slices.Equal(j.Slashed, j.Members[2:]) {
					t.Fatalf("slashed %v, want the dissenting member 2", j.Slashed)
				}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, 3)
			for i := 0; i < 3; i++ {
				e.must(RegistryAddress, e.runner(i), cby(10_000), "register", "http://127.0.0.1:1/", []string{"m1"}, []string{"example.com"},
					tc.rates, cby(1_000), uint64(0))
			}
			extra := map[string]any{}
			if tc.tip != nil {
				extra["tip"] = tc.tip
			}
			j := e.post(user(1), spec(TrustMajority, 3, cby(10), extra))
			if j.Aggregator != j.Members[0] {
				t.Fatalf("aggregator %s is not member 0", j.Aggregator)
			}
			answers := map[types.Address]answer{}
			for k, m := range j.Members {
				answers[m] = tc.answers[k]
			}
			before := make([]*big.Int, 3)
			for k, m := range j.Members {
				before[k] = new(big.Int).Set(e.st.Balance(m))
			}
			entries := e.commitAll(j, answers)
			e.must(VerifierAddress, j.Aggregator, nil, "reveal", j.ID, entries)
			j = e.job(j.ID)
			if j.Outcome != tc.outcome {
				t.Fatalf("outcome %q (%s), want %q", j.Outcome, j.Error, tc.outcome)
			}
			gain := make([]*big.Int, 3)
			paid := new(big.Int).Add(j.Burned, j.Treasury)
			for k, m := range j.Members {
				gain[k] = new(big.Int).Sub(e.st.Balance(m), before[k])
				paid.Add(paid, gain[k])
			}
			if paid.Cmp(j.Payment) != 0 {
				t.Fatalf("members, burn and treasury got %s of a payment of %s", paid, j.Payment)
			}
			tc.check(t, j, gain)
			// The record's counters: a success per accepted result, a
			// slash (and 10% of the self-bond burned) per proven liar.
			for k, m := range j.Members {
				r := e.rec(m)
				wantSuccess := uint64(0)
				if j.Outcome == OutcomeSuccess && slices.Contains(j.Winners, m) {
					wantSuccess = 1
				}
				wantSlash, wantBond := uint64(0), cby(10_000)
				if slices.Contains(j.Slashed, m) {
					wantSlash, wantBond = 1, cby(9_000)
				}
				if r.Successes != wantSuccess || r.Slashes != wantSlash || r.SelfBond.Cmp(wantBond) != 0 {
					t.Fatalf("member %d: successes %d slashes %d self-bond %s, want %d %d %s", k, r.Successes, r.Slashes, r.SelfBond, wantSuccess, wantSlash, wantBond)
				}
			}
		})
	}
}

// TestNoChallengeWindowWithoutHeldPayment: only an economic_bond job whose
// payment is held opens a challenge window; any other settled job takes
// no wakeup slot at settlement + ChallengeWindowBlocks.
func TestNoChallengeWindowWithoutHeldPayment(t *testing.T) {
	for _, tc := range []struct {
		name   string
		trust  string
		status uint8
		window bool
	}{
		{"none, success", TrustNone, StatusOK, false},
		{"economic_bond, impossible", TrustBond, StatusImpossible, false},
		{"economic_bond, success", TrustBond, StatusOK, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, 1)
			e.register(0, 10_000, 0)
			j := e.post(user(1), spec(tc.trust, 1, cby(10), nil))
			entries := e.commitAll(j, map[types.Address]answer{j.Members[0]: {tc.status, "yes", 100}})
			e.must(VerifierAddress, j.Members[0], nil, "reveal", j.ID, entries)
			j = e.job(j.ID)
			l, err := readList[uint64](e.st, wakeupKey(j.Settled+dp.ChallengeWindowBlocks), "wakeups")
			if err != nil {
				t.Fatal(err)
			}
			if got := j.ChallengeEnd != 0 || len(l) != 0; got != tc.window || (j.Held.Sign() > 0) != tc.window {
				t.Fatalf("challenge end %d, %d wakeups, held %s; want a window: %v", j.ChallengeEnd, len(l), j.Held, tc.window)
			}
		})
	}
}

// TestDelegationLimits: a runner takes at most MaxDelegators delegators
// and 9 × its self-bond in delegations (the refusal names what is left);
// a delegator may undelegate its whole stake, in at most MaxTranches
// unbonding tranches, released UnbondingBlocks later.
func TestDelegationLimits(t *testing.T) {
	for _, tc := range []struct {
		name string
		run  func(e *env, r types.Address) (Result, error)
		want string // refusal; "" accepted
		ev   map[string]uint64
	}{
		{"last delegator seat", func(e *env, r types.Address) (Result, error) {
			fillDelegators(e, r, int(dp.MaxDelegators)-1)
			return e.call(RegistryAddress, user(1), cby(1), "delegate", r[:])
		}, "", nil},
		{"delegators full", func(e *env, r types.Address) (Result, error) {
			fillDelegators(e, r, int(dp.MaxDelegators))
			return e.call(RegistryAddress, user(1), cby(1), "delegate", r[:])
		}, "maximum of 200 delegators", nil},
		{"over 9 × the self-bond", func(e *env, r types.Address) (Result, error) {
			e.must(RegistryAddress, user(2), cby(50_000), "delegate", r[:])
			return e.call(RegistryAddress, user(1), cby(40_001), "delegate", r[:])
		}, "at most 40000000000000000000000 base units more", nil},
		{"the whole delegation", func(e *env, r types.Address) (Result, error) {
			e.must(RegistryAddress, user(1), cby(5_000), "delegate", r[:])
			return e.call(RegistryAddress, user(1), nil, "undelegate", r[:], cby(5_000))
		}, "", map[string]uint64{"release": 100 + dp.UnbondingBlocks}},
		{"more than the delegation", func(e *env, r types.Address) (Result, error) {
			e.must(RegistryAddress, user(1), cby(5_000), "delegate", r[:])
			return e.call(RegistryAddress, user(1), nil, "undelegate", r[:], new(big.Int).Add(cby(5_000), big.NewInt(1)))
		}, "amount must be 1", nil},
		{"tranches full", func(e *env, r types.Address) (Result, error) {
			e.must(RegistryAddress, user(1), cby(5_000), "delegate", r[:])
			for k := uint64(0); k < dp.MaxTranches; k++ {
				e.must(RegistryAddress, user(1), nil, "undelegate", r[:], cby(1))
			}
			return e.call(RegistryAddress, user(1), nil, "undelegate", r[:], cby(1))
		}, "unbonding tranches already", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, 1)
			e.height = 100
			e.register(0, 10_000, 0)
			r := e.runner(0)
			res, err := tc.run(e, r)
			if tc.want != "" {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("err = %v, want %q", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.ev != nil {
				var ev map[string]any
				if err := types.Unmarshal(res.Events[0].Data, &ev); err != nil {
					t.Fatal(err)
				}
				for k, v := range tc.ev {
					if ev[k] != v {
						t.Fatalf("event %s = %v, want %d", k, ev[k], v)
					}
				}
			}
		})
	}
}

// fillDelegators gives runner r n delegators (records of 1 base unit each).
func fillDelegators(e *env, r types.Address, n int) {
	rec := e.rec(r)
	for k := 0; k < n; k++ {
		da := types.Address{0: 0xdd, 18: byte(k >> 8), 19: byte(k)}
		rec.Delegators = append(rec.Delegators, da)
		rec.Delegated.Add(rec.Delegated, big.NewInt(1))
		writeDelegation(e.st, r, da, &Delegation{Amount: big.NewInt(1)})
	}
	e.st.AddBalance(RegistryAddress, big.NewInt(int64(n)))
	slices.SortFunc(rec.Delegators, cmpAddr)
	writeRunner(e.st, r, rec)
}
