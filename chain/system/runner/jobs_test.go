package runner

import (
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/types"
)

// threeRunners registers runners 0, 1, 2 (10,000 CBY each, 10%
// commission) and has user(9) delegate 5,000 CBY to each.
func threeRunners(t *testing.T) *env {
	e := newEnv(t, 3)
	for i := 0; i < 3; i++ {
		e.register(i, 10_000, 1_000)
		r := e.runner(i)
		e.must(RegistryAddress, user(9), cby(5_000), "delegate", r[:])
	}
	return e
}

func milli(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), big.NewInt(1e15)) }

func TestMajorityVoteSlashesTheLiarAndPenalizesOnlyReputationOfTheSilent(t *testing.T) {
	e := newEnv(t, 5)
	for i := 0; i < 5; i++ {
		e.register(i, 10_000, 1_000)
		r := e.runner(i)
		e.must(RegistryAddress, user(9), cby(5_000), "delegate", r[:])
	}
	requester := user(1)
	j := e.post(requester, spec(TrustMajority, 5, cby(10), nil))
	if len(j.Members) != 5 || j.Phase != PhaseCommitting {
		t.Fatalf("job = %+v", j)
	}
	liar, silent := j.Members[1], j.Members[3]
	if j.Aggregator != j.Members[0] {
		t.Fatalf("aggregator %s, want the first drawn of equal reputation %s", j.Aggregator, j.Members[0])
	}
	answers := map[types.Address]answer{}
	for _, i := range []int{0, 2, 4} {
		answers[j.Members[i]] = answer{StatusOK, "yes", 100}
	}
	answers[liar] = answer{StatusOK, "no", 100}
	entries := e.commitAll(j, answers)
	liarBond, liarDelegated := e.rec(liar).SelfBond, e.rec(liar).Delegated
	silentBefore := e.rec(silent)
	supply := e.st.Supply()
	e.endBlocks(j.CommitDeadline)
	e.must(VerifierAddress, j.Aggregator, nil, "reveal", j.ID, entries)
	j = e.job(j.ID)
	if j.Phase != PhaseSettled || string(j.Output) != "yes" {
		t.Fatalf("phase %s output %q error %q", PhaseName(j.Phase), j.Output, j.Error)
	}
	// min(3 × (1 CBY + 100 tokens × 0.001 CBY), 10 CBY) = 3.3 CBY.
	if j.Payment.Cmp(milli(3_300)) != 0 {
		t.Fatalf("payment %s", j.Payment)
	}
	if got := e.rec(liar); got.SelfBond.Cmp(bps(liarBond, 10_000-dp.SlashBps)) != 0 || got.Delegated.Cmp(bps(liarDelegated, 10_000-dp.SlashBps)) != 0 {
		t.Fatalf("liar self-bond %s delegated %s after slashing", got.SelfBond, got.Delegated)
	}
	slashed := new(big.Int).Add(bps(liarBond, dp.SlashBps), bps(liarDelegated, dp.SlashBps))
	wantSupply := new(big.Int).Sub(supply, slashed)
	wantSupply.Sub(wantSupply, bps(j.Payment, BurnShareBps))
	if e.st.Supply().Cmp(wantSupply) != 0 {
		t.Fatalf("supply %s, want %s (10%% of the payment and the slash burned)", e.st.Supply(), wantSupply)
	}
	s := e.rec(silent)
	if s.SelfBond.Cmp(silentBefore.SelfBond) != 0 || s.Delegated.Cmp(silentBefore.Delegated) != 0 {
		t.Fatal("the silent member lost stake: a timeout costs reputation only (§12.2)")
	}
	if s.Reputation != silentBefore.Reputation-dp.RepTimeout || s.Timeouts != 1 {
		t.Fatalf("silent reputation %d timeouts %d", s.Reputation, s.Timeouts)
	}
	if j.DeliverAt != e.height+1 && j.DeliverAt != j.Settled+1 {
		t.Fatalf("deliver at %d, settled %d", j.DeliverAt, j.Settled)
	}
	ds, err := Deliveries(e.st, j.Settled+1)
	if err != nil || len(ds) != 1 || ds[0].Job.ID != j.ID {
		t.Fatalf("deliveries = %v, %v", ds, err)
	}
}

// TestPaymentTable runs every row of the payment table ("Payment and
// Failure Handling") through real calls, without and with a tip, and
// checks where every base unit of the escrow went: payment (plus the tip
// on success only) split 89% runners and their delegators, 10% burned, 1%
// treasury; the rest, the tip of every other row included, refunded.
func TestPaymentTable(t *testing.T) {
	yes := answer{StatusOK, "yes", 100}
	for _, tc := range []struct {
		name     string
		maxPrice *big.Int
		model    string
		answers  []answer // per member in committee order; zero status with "" output: silent
		silent   []int
		outcome  string
		payment  *big.Int
	}{
		{"success", cby(10), "m1", []answer{yes, yes, yes}, nil, OutcomeSuccess, milli(3_300)},
		{"success capped at max_price", cby(2), "m1", []answer{yes, yes, yes}, nil, OutcomeSuccess, cby(2)},
		{"runner fault: nobody commits", cby(10), "m1", nil, []int{0, 1, 2}, OutcomeRunner, zero()},
		{"runner fault: no quorum", cby(10), "m1", []answer{yes, {StatusOK, "no", 5}, {StatusOK, "maybe", 5}}, nil, OutcomeRunner, zero()},
		{"runner fault: a quorum times out", cby(10), "m1", []answer{yes}, []int{1, 2}, OutcomeRunner, zero()},
		{"impossible job: pro rata", cby(10), "m1", []answer{{StatusImpossible, "max_tokens reached", 50}, {StatusImpossible, "max_tokens reached", 50}, yes}, nil, OutcomeImpossible, milli(2_100)},
		{"actor fault: minimum fee", cby(10), "m1", []answer{{StatusActorFault, "malformed input", 0}, {StatusActorFault, "malformed input", 9}, {StatusActorFault, "malformed input", 0}}, nil, OutcomeActor, cby(3)},
		{"external fault: pro rata", cby(10), "m1", []answer{{StatusExternal, "model unavailable", 0}, {StatusExternal, "model unavailable", 0}, {StatusExternal, "model unavailable", 0}}, nil, OutcomeExternal, cby(3)},
		{"no committee", cby(10), "m2", nil, nil, OutcomeNoRunners, zero()},
	} {
		for _, tip := range []*big.Int{zero(), cby(1)} {
			tc := tc
			if tip.Sign() > 0 {
				tc.name += " with a tip"
				if tc.outcome == OutcomeSuccess {
					tc.payment = new(big.Int).Add(tc.payment, tip)
				}
			}
			t.Run(tc.name, func(t *testing.T) {
				e := threeRunners(t)
				requester := user(1)
				before := e.money()
				stakeBefore := e.st.Balance(RegistryAddress).String()
				supply := e.st.Supply()
				j := e.post(requester, spec(TrustMajority, 3, tc.maxPrice, map[string]any{"model": tc.model, "tip": tip}))
				if tc.outcome != OutcomeNoRunners {
					answers := map[types.Address]answer{}
					for i, a := range tc.answers {
						if !slices.Contains(tc.silent, i) {
							answers[j.Members[i]] = a
						}
					}
					entries := e.commitAll(j, answers)
					e.endBlocks(j.CommitDeadline + dp.AggregatorTimeoutBlocks)
					if len(entries) > 0 {
						// the aggregator reveals what it has; if it is silent
						// itself, each member reveals its own.
						if _, ok := answers[j.Aggregator]; ok {
							e.must(VerifierAddress, j.Aggregator, nil, "reveal", j.ID, entries)
						} else {
							for _, en := range entries {
								m := types.Address(en.([]any)[0].([]byte))
								e.must(VerifierAddress, m, nil, "reveal", j.ID, []any{en})
							}
						}
					}
					e.endBlocks(j.Deadline)
				}
				j = e.job(j.ID)
				if j.Outcome != tc.outcome {
					t.Fatalf("outcome %q (%s), want %q", j.Outcome, j.Error, tc.outcome)
				}
				if j.Payment.Cmp(tc.payment) != 0 {
					t.Fatalf("payment %s, want %s", j.Payment, tc.payment)
				}
				after := e.money()
				paid := new(big.Int).Sub(bigOf(before[requester]), bigOf(after[requester]))
				if paid.Cmp(tc.payment) != 0 {
					t.Fatalf("the requester paid %s, want %s (refund = escrow − payment)", paid, tc.payment)
				}
				if e.st.Balance(DispatcherAddress).Sign() != 0 {
					t.Fatalf("escrow keeps %s after settlement", e.st.Balance(DispatcherAddress))
				}
				if e.st.Balance(RegistryAddress).String() != stakeBefore {
					t.Fatal("stake moved: no row of the payment table slashes here")
				}
				burn, treas := bps(tc.payment, BurnShareBps), bps(tc.payment, TreasuryShareBps)
				if got := new(big.Int).Sub(supply, e.st.Supply()); got.Cmp(burn) != 0 {
					t.Fatalf("burned %s, want 10%% = %s", got, burn)
				}
				if got := e.st.Balance(TreasuryAddress); got.Cmp(treas) != 0 {
					t.Fatalf("treasury %s, want 1%% = %s", got, treas)
				}
				toRunners := zero()
				for i := 0; i < 3; i++ {
					toRunners.Add(toRunners, new(big.Int).Sub(bigOf(after[e.runner(i)]), bigOf(before[e.runner(i)])))
				}
				toRunners.Add(toRunners, new(big.Int).Sub(bigOf(after[user(9)]), bigOf(before[user(9)])))
				want := new(big.Int).Sub(tc.payment, burn)
				want.Sub(want, treas)
				if toRunners.Cmp(want) != 0 {
					t.Fatalf("runners and delegators got %s, want 89%% = %s", toRunners, want)
				}
				if tc.outcome != OutcomeSuccess && j.Phase != PhaseFailed {
					t.Fatalf("phase %s", PhaseName(j.Phase))
				}
				if tc.outcome == OutcomeNoRunners && (j.Settled != j.Posted || !strings.Contains(j.Error, "no committee")) {
					t.Fatalf("no-committee job settled at %d (posted %d): %q", j.Settled, j.Posted, j.Error)
				}
			})
		}
	}
}

func bigOf(s string) *big.Int {
	v, _ := new(big.Int).SetString(s, 10)
	return v
}

func TestDelegatorsShareByCommission(t *testing.T) {
	e := newEnv(t, 1)
	e.register(0, 10_000, 2_000) // 20% commission
	r := e.runner(0)
	e.must(RegistryAddress, user(1), cby(30_000), "delegate", r[:])
	e.must(RegistryAddress, user(2), cby(10_000), "delegate", r[:])
	j := e.post(user(5), spec(TrustNone, 1, cby(100), nil))
	rb, b1, b2 := e.st.Balance(r), e.st.Balance(user(1)), e.st.Balance(user(2))
	entries := e.commitAll(j, map[types.Address]answer{r: {StatusOK, "yes", 9_000}}) // 1 + 9 = 10 CBY
	e.must(VerifierAddress, r, nil, "reveal", j.ID, entries)
	j = e.job(j.ID)
	if j.Payment.Cmp(cby(10)) != 0 {
		t.Fatalf("payment %s", j.Payment)
	}
	// pool 8.9 CBY (the aggregator bonus is the runner's revenue too):
	// delegators hold 40k of 50k → 7.12, less 20% commission → 5.696, 3:1
	// between user(1) and user(2).
	d1 := new(big.Int).Sub(e.st.Balance(user(1)), b1)
	d2 := new(big.Int).Sub(e.st.Balance(user(2)), b2)
	own := new(big.Int).Sub(e.st.Balance(r), rb)
	if d1.Cmp(big.NewInt(4_272_000_000_000_000_000)) != 0 || d2.Cmp(big.NewInt(1_424_000_000_000_000_000)) != 0 {
		t.Fatalf("delegators got %s and %s", d1, d2)
	}
	if sum := new(big.Int).Add(new(big.Int).Add(d1, d2), own); sum.Cmp(milli(8_900)) != 0 {
		t.Fatalf("runner side got %s, want 8.9 CBY", sum)
	}
}

func TestSampleWeightsByStake(t *testing.T) {
	e := newEnv(t, 3)
	e.register(0, 10_000, 0)
	e.register(1, 40_000, 0)
	e.register(2, 10_000, 0)
	e.st.Set(runnerKey(e.runner(2)), mustMarshal(func() *Runner { r := e.rec(e.runner(2)); r.Reputation = dp.MinReputation - 1; return r }()))
	counts := map[types.Address]int{}
	for i := 0; i < 400; i++ {
		j := &Job{ID: uint64(i + 1), Spec: JobSpec{Kind: KindLLM, Model: "m1", Committee: 1, MaxPrice: cby(1)}}
		m, _, why, err := sample(e.st, dp, j, [32]byte{byte(i), byte(i >> 8)}, nil)
		if err != nil || why != "" {
			t.Fatal(err, why)
		}
		counts[m[0]]++
	}
	if counts[e.runner(2)] != 0 {
		t.Fatal("an unhealthy runner was drawn")
	}
	// Expected 80/320: fixed beacons make this exact, not a flake.
	if a, b := counts[e.runner(0)], counts[e.runner(1)]; b < 2*a || a == 0 {
		t.Fatalf("draws %d (10k) vs %d (40k): not weighted by stake", a, b)
	}
}
